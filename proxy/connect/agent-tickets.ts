// Agent tickets. A browser an agent opens through the MCP surface is a real connect session: the
// agent toolkit opens a WebSocket to this very process's /v1/connect on loopback, so the queue,
// failover, profiles, recording, traces and billing all apply as for any client. The MCP session
// already authenticated its caller (a chat link or a router key), and a chat link is no router key,
// so the connect carries `agent_ticket=` instead: 32 random bytes that stand for that caller's
// identity for one connect within AGENT_TICKET_TTL_MS. Tickets live in this process's memory only
// (the MCP session and the connect it makes are always the same process), are kept by SHA-256,
// and are accepted only from a loopback address that no reverse proxy relayed (isLocalCaller).
import type { IncomingMessage } from 'node:http';
import { hashSecret, newSecret } from '../../lib/crypto/secrets';
import type { RouterKeyIdentity } from '../auth/router-key';

export const AGENT_TICKET_PREFIX = 'atkt_';
/** The toolkit connects right after asking for the address; half a minute is plenty. */
export const AGENT_TICKET_TTL_MS = 30_000;
/** The query parameter of GET /v1/connect that carries a ticket. */
export const AGENT_TICKET_PARAM = 'agent_ticket';

/** Which credential the MCP session was opened with: decides which revocations close its browsers. */
export type AgentCredential = 'router_key' | 'chat_link';

export interface AgentTicketEntry {
  /** The identity the session runs under (router, workspace, wallet), as of the MCP request that asked. */
  identity: RouterKeyIdentity;
  /** The credential's id (RouterKey.id or ChatLink.id): revoking it closes the session. */
  credentialId: string;
  credential?: AgentCredential;
}

export function isWellFormedAgentTicket(plaintext: string | null): plaintext is string {
  return plaintext !== null && /^atkt_[A-Za-z0-9_-]{43}$/.test(plaintext);
}

export class AgentTickets {
  /** SHA-256 → entry and expiry; insertion order is expiry order (one TTL for all). */
  private readonly entries = new Map<string, AgentTicketEntry & { expiresAt: number }>();

  constructor(private readonly options: { ttlMs?: number; now?: () => number } = {}) {}

  issue(entry: AgentTicketEntry): string {
    const now = this.now();
    this.sweep(now);
    const secret = newSecret(AGENT_TICKET_PREFIX);
    this.entries.set(secret.hash, { ...entry, expiresAt: now + (this.options.ttlMs ?? AGENT_TICKET_TTL_MS) });
    return secret.plaintext;
  }

  /** The ticket's entry, or null when it is malformed, unknown, already used or expired. Works once. */
  redeem(ticket: string | null): AgentTicketEntry | null {
    if (!isWellFormedAgentTicket(ticket)) return null;
    const hash = hashSecret(ticket);
    const entry = this.entries.get(hash);
    if (!entry) return null;
    this.entries.delete(hash);
    if (entry.expiresAt <= this.now()) return null;
    const { expiresAt: _expiresAt, ...rest } = entry;
    return rest;
  }

  /** Tickets issued and neither redeemed nor swept yet (tests). */
  get size(): number {
    return this.entries.size;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Tickets nobody redeemed are dropped at the next issue, so the map stays as small as the traffic. */
  private sweep(now: number): void {
    for (const [hash, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(hash);
    }
  }
}

/**
 * Whether a request comes from this machine itself: the socket's peer is a loopback address and
 * the request names no forwarding hop. A reverse proxy on the same machine also connects from
 * loopback, but it adds X-Forwarded-For (or Forwarded); the toolkit's own connect never does.
 */
export function isLocalCaller(req: Pick<IncomingMessage, 'headers' | 'socket'>): boolean {
  if (req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined) return false;
  return isLoopbackAddress(req.socket.remoteAddress);
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.toLowerCase().replace(/^::ffff:/, '');
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}
