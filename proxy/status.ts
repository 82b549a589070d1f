// GET /v1/status: the router key's providers with their live state. GET /internal/routers/:id/status:
// the same for the web process (the dashboard), authenticated with the internal service token,
// so the dashboard needs no router key, marks none as used and counts no failures.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInternalServiceToken } from '../lib/crypto/internal-token';
import type { RouterStatusAnswer } from '../lib/routers/live-status';
import type { RouterKeyAuth } from './auth/authenticate';
import type { RouterStore } from './config/router-store';
import type { Cluster } from './cluster/cluster';
import { json, text } from './http/respond';

export type StatusDeps = { routers: RouterStore; keys: RouterKeyAuth; cluster?: Cluster };

export async function handleStatus(req: IncomingMessage, res: ServerResponse, url: URL, deps: StatusDeps): Promise<void> {
  const auth = await deps.keys.check(req, url);
  if (!auth.ok) return text(res, auth.status, auth.message, auth.headers);
  // As connect, discovery and the data API: a suspended workspace, or one marked for deletion, is refused.
  if (auth.identity.suspended) return text(res, 402, 'the workspace is suspended');
  json(res, 200, await routerStatus(auth.identity.routerId, deps));
}

export async function handleInternalStatus(req: IncomingMessage, res: ServerResponse, routerId: string, deps: StatusDeps): Promise<void> {
  if (!internalCaller(req, res, deps.keys)) return;
  json(res, 200, await routerStatus(routerId, deps));
}

/**
 * The internal endpoints' check (the web process's service token); false once it has answered.
 * The same rule as a router key: a wrong token counts toward the address's throttle, and the
 * right one works even while the address is throttled (the check involves no database).
 */
export function internalCaller(req: IncomingMessage, res: ServerResponse, keys: RouterKeyAuth): boolean {
  const ip = keys.clientIp(req);
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization?.trim() ?? '')?.[1] ?? null;
  if (isInternalServiceToken(bearer)) return true;
  const blocked = keys.throttle.blockedFor(ip, Date.now());
  if (blocked > 0) text(res, 429, 'too many failed attempts from this address', { 'Retry-After': String(blocked) });
  else {
    keys.throttle.recordFailure(ip, Date.now());
    text(res, 401, 'internal endpoint: the service token is missing or wrong');
  }
  return false;
}

/**
 * `active` counts the provider's sessions on every proxy (the shared leases); `queued` is the
 * connections waiting on the proxy that answers (each proxy queues its own).
 */
async function routerStatus(routerId: string, deps: StatusDeps): Promise<RouterStatusAnswer> {
  const router = await deps.routers.get(routerId);
  const status = router?.engine.status() ?? [];
  const across = deps.cluster ? await deps.cluster.activeCounts(status.map((s) => s.id)) : null;
  const providers = status.map((s) => ({
    id: s.id,
    slug: s.slug,
    healthy: s.healthy,
    priority: s.priority,
    active: across ? (across.get(s.id) ?? 0) : s.active,
    maxConcurrent: s.maxConcurrent,
    cooldownUntil: s.cooldownUntil === null ? null : new Date(s.cooldownUntil).toISOString(),
  }));
  return { ok: true as const, providers, queued: router?.engine.queueLength ?? 0 };
}
