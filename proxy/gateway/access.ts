// Who may call the gateway (docs/gateway.md, "Access"). With GW_TOKEN every route but the
// dashboard's empty page needs it (a bearer header in any case of "Bearer", or `?token=` where a
// client cannot set headers); wrong tokens are throttled per client address as the hosted proxy's
// router keys are (proxy/auth/failure-throttle.ts), and off loopback the token must be long enough
// not to be guessed. Without it the routes are open, which is why the default bind is loopback, and
// every request must then name a loopback host (or one listed in GW_ALLOWED_HOSTS) in its Host
// header: a page on a DNS-rebound name reaches 127.0.0.1 with its own name there. A browser's
// cross-origin request (an Origin that is neither this gateway nor listed in GW_ALLOWED_ORIGINS) is
// refused on every route, WebSockets included.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { clientAddress } from '../auth/client-address';
import { FailureThrottle } from '../auth/failure-throttle';

/** A token a gateway reachable from other machines accepts is at least this long. */
export const MIN_REMOTE_TOKEN_CHARS = 24;
export const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export interface Refusal {
  status: number;
  message: string;
  headers: Record<string, string>;
}

export interface AccessOptions {
  token: string | null;
  /** The address it binds to (its own name too). */
  host: string;
  trustProxy: boolean;
  allowedOrigins: string[];
  allowedHosts: Set<string>;
  publicOrigin: string | null;
}

/** Refuses, at start, a token too short for a gateway other machines can reach; the message says why. */
export function checkTokenStrength(token: string | null, host: string): void {
  if (!token || LOOPBACK_HOSTS.has(host) || token.length >= MIN_REMOTE_TOKEN_CHARS) return;
  throw new Error(
    `GW_TOKEN has ${token.length} characters; a gateway bound to ${host} (reachable from other machines) needs at least ${MIN_REMOTE_TOKEN_CHARS}, ` +
      'or it can be guessed: make a long random one (e.g. `openssl rand -base64 32`), or bind to 127.0.0.1 (HOST)',
  );
}

export class GatewayAccess {
  private readonly throttle = new FailureThrottle();
  private readonly boundName: string;

  constructor(private readonly options: AccessOptions) {
    this.boundName = options.host.includes(':') ? `[${options.host.toLowerCase()}]` : options.host.toLowerCase();
  }

  /** Why this request may not go on, or null. */
  refusal(req: IncomingMessage, url: URL, needsToken: boolean): Refusal | null {
    const { token, trustProxy, allowedOrigins, allowedHosts, publicOrigin } = this.options;
    const hostHeader = ((trustProxy && first(req.headers['x-forwarded-host'])) || req.headers.host || '').toLowerCase();
    const origin = first(req.headers.origin);
    if (
      origin &&
      origin !== 'null' &&
      !sameOrigin(origin, hostHeader) &&
      !allowedOrigins.includes(origin.toLowerCase()) &&
      origin.toLowerCase() !== publicOrigin
    ) {
      return refused(403, `cross-origin requests from ${origin} are not allowed (GW_ALLOWED_ORIGINS)`);
    }
    if (origin === 'null') return refused(403, 'requests from opaque origins are not allowed');
    if (!token) {
      const name = hostHeader.replace(/:\d+$/, '');
      if (!LOOPBACK_HOSTS.has(name) && !allowedHosts.has(hostHeader) && !allowedHosts.has(name) && name !== this.boundName) {
        return refused(403, `Host "${hostHeader}" is not allowed without GW_TOKEN; set GW_TOKEN, or list the name in GW_ALLOWED_HOSTS`);
      }
      return null;
    }
    if (!needsToken || tokenMatches(req, url, token)) return null;
    // A wrong or missing token: after too many from one address, 429 until its window moves on.
    const ip = clientAddress(req, trustProxy);
    const now = Date.now();
    const blockedFor = this.throttle.blockedFor(ip, now);
    if (blockedFor > 0) return refused(429, 'too many failed attempts from this address; retry later', { 'Retry-After': String(blockedFor) });
    this.throttle.recordFailure(ip, now);
    return refused(401, 'missing or wrong token (Authorization: Bearer <GW_TOKEN>, or ?token=)', { 'WWW-Authenticate': 'Bearer' });
  }
}

function refused(status: number, message: string, headers: Record<string, string> = {}): Refusal {
  return { status, message, headers };
}

function tokenMatches(req: IncomingMessage, url: URL, token: string): boolean {
  const header = first(req.headers.authorization)?.trim();
  const bearer = header ? /^bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
  const given = bearer ?? url.searchParams.get('token');
  if (!given) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}

function sameOrigin(origin: string, hostHeader: string): boolean {
  try {
    return new URL(origin).host.toLowerCase() === hostHeader;
  } catch {
    return false;
  }
}

export function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
