// The one router-key check of the proxy: GET /v1/connect, GET /v1/status and the data API
// (POST /v1/screenshot, /v1/content, /v1/scrape) all call RouterKeyAuth.check() and only word the
// refusal in their own format. The rule (docs/decisions.md, "Failed-attempt throttle"):
// - failures count per client address: the socket's, or with TRUST_PROXY=1 the right-most
//   X-Forwarded-For entry (the address the trusted reverse proxy itself saw; entries to its left
//   are whatever the client sent and are ignored);
// - a throttled address's failed attempts get 429 with Retry-After, and a valid key from it still
//   works; FailureThrottle.gate() keeps the failures of a throttled address away from the database.
// GET /json/version (CDP discovery) calls it too; on GET /v1/connect a connect ticket from there
// (`ticket=`, connect-ticket.ts) stands for the key, under the same throttle. The MCP surface
// (/mcp) calls checkMcp(), which takes a router key or the router's chat link (chat-link.ts),
// under the same throttle as well.
import type { IncomingMessage } from 'node:http';
import { hashSecret } from '../../lib/crypto/secrets';
import { isWellFormedChatLink, lookupChatLink } from './chat-link';
import { isWellFormedTicket, redeemConnectTicket, TICKET_PARAM } from './connect-ticket';
import { clientAddress } from './client-address';
import { FailureThrottle } from './failure-throttle';
import { isWellFormedRouterKey, keyFrom, lookupRouterKey, type RouterKeyIdentity } from './router-key';

export const KEY_REFUSED = 'router key missing, wrong or revoked: pass an Authorization: Bearer header or ?token=<router key>';
export const TICKET_REFUSED = 'connect ticket unknown, already used or expired: read /json/version again, or connect with the router key';
export const MCP_REFUSED = 'chat link or router key missing, wrong or revoked: pass an Authorization: Bearer header or ?token=<chat link token or router key>';
export const THROTTLED = 'too many failed attempts from this address; wait before retrying';

export type KeyCheck =
  { ok: true; ip: string; identity: RouterKeyIdentity } | { ok: false; ip: string; status: 401 | 429; message: string; headers: Record<string, string> };

/** Which credential a request to /mcp authenticated with. */
export type McpCredential = 'router_key' | 'chat_link';

type CredentialKind = 'key' | 'ticket' | 'chat_link';

export interface RouterKeyAuthOptions {
  throttle?: FailureThrottle;
  /** TRUST_PROXY=1: the client address is the right-most X-Forwarded-For entry. */
  trustProxy?: boolean;
  /** Looks a key up by its SHA-256; the database unless a test passes its own. */
  lookup?: (keyHash: string) => Promise<RouterKeyIdentity | null>;
  /** Redeems a connect ticket by its SHA-256; the database unless a test passes its own. */
  redeemTicket?: (ticketHash: string) => Promise<RouterKeyIdentity | null>;
  /** Looks a chat link up by its token's SHA-256; the database unless a test passes its own. */
  lookupChatLink?: (tokenHash: string) => Promise<RouterKeyIdentity | null>;
  now?: () => number;
}

export class RouterKeyAuth {
  readonly throttle: FailureThrottle;
  readonly trustProxy: boolean;
  private readonly lookup: (keyHash: string) => Promise<RouterKeyIdentity | null>;
  private readonly redeemTicket: (ticketHash: string) => Promise<RouterKeyIdentity | null>;
  private readonly lookupChatLink: (tokenHash: string) => Promise<RouterKeyIdentity | null>;
  private readonly now: () => number;

  constructor(options: RouterKeyAuthOptions = {}) {
    this.throttle = options.throttle ?? new FailureThrottle();
    this.trustProxy = options.trustProxy ?? false;
    this.lookup = options.lookup ?? lookupRouterKey;
    this.redeemTicket = options.redeemTicket ?? redeemConnectTicket;
    this.lookupChatLink = options.lookupChatLink ?? lookupChatLink;
    this.now = options.now ?? Date.now;
  }

  clientIp(req: Pick<IncomingMessage, 'headers' | 'socket'>): string {
    return clientAddress(req, this.trustProxy);
  }

  /**
   * The request's router key (bearer header or `token`), judged for the request's client address;
   * on GET /v1/connect without a key, its connect ticket.
   */
  check(req: IncomingMessage, url: URL): Promise<KeyCheck> {
    const key = keyFrom(req, url);
    const ticket = url.pathname === '/v1/connect' && key === null && !req.headers.authorization ? url.searchParams.get(TICKET_PARAM) : null;
    if (ticket !== null) return this.checkKey(this.clientIp(req), ticket, 'ticket');
    return this.checkKey(this.clientIp(req), key);
  }

  /**
   * The request's credential for /mcp (bearer header or `token`): the router's chat link (`mcp_…`)
   * or one of its router keys, judged like a router key (same throttle, same 401 and 429).
   */
  async checkMcp(req: IncomingMessage, url: URL): Promise<KeyCheck & { credential: McpCredential }> {
    const token = keyFrom(req, url);
    const credential: McpCredential = token?.startsWith('mcp_') ? 'chat_link' : 'router_key';
    const check = await this.checkKey(this.clientIp(req), token, credential === 'chat_link' ? 'chat_link' : 'key');
    return { ...(check.ok || check.status !== 401 ? check : { ...check, message: MCP_REFUSED }), credential };
  }

  async checkKey(ip: string, plaintext: string | null, kind: CredentialKind = 'key'): Promise<KeyCheck> {
    const wellFormed =
      kind === 'key' ? isWellFormedRouterKey(plaintext) : kind === 'chat_link' ? isWellFormedChatLink(plaintext) : isWellFormedTicket(plaintext);
    const keyHash = wellFormed ? hashSecret(plaintext!) : null;
    const gate = this.throttle.gate(ip, keyHash, this.now());
    const lookup = kind === 'key' ? this.lookup : kind === 'chat_link' ? this.lookupChatLink : this.redeemTicket;
    const identity = gate.lookup ? await lookup(keyHash!) : null;
    const now = this.now();
    if (identity) {
      // A ticket works once: nothing to remember about it.
      if (kind !== 'ticket') this.throttle.recordSuccess(ip, now, keyHash!);
      return { ok: true, ip, identity };
    }
    // A failure counts when the key was judged: looked up, or refused for its shape while the
    // address was not throttled. What a throttled address is refused without a lookup is not a
    // key check, and does not push its throttle further out.
    if (gate.lookup || gate.blockedFor === 0) this.throttle.recordFailure(ip, now, keyHash);
    if (gate.blockedFor === 0) return { ok: false, ip, status: 401, message: kind === 'ticket' ? TICKET_REFUSED : KEY_REFUSED, headers: {} };
    const retryAfter = Math.max(1, this.throttle.blockedFor(ip, now));
    return { ok: false, ip, status: 429, message: THROTTLED, headers: { 'Retry-After': String(retryAfter) } };
  }
}
