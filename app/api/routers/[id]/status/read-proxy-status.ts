// The proxy's live view of one router's providers, read by the web process on the proxy's
// loopback address. The proxy answers GET /v1/status only to a router key; the browser may hold
// none (members cannot read one) and cannot call the proxy cross-origin anyway, so the web process
// asks with the router's newest live key, which never leaves the server.
import { ApiError } from '@/lib/api/errors';
import { currentRouterKeyPlaintext } from '@/lib/keys/manage-router-keys';
import { log } from '@/lib/log';

export interface LiveProviderState {
  id: string;
  slug: string;
  healthy: boolean;
  priority: number;
  active: number;
  /** The provider's maxConcurrent, else a managed provider's advertised capacity; null: no limit. */
  maxConcurrent: number | null;
  cooldownUntil: string | null;
}

/** `available: false` when the live state cannot be read (proxy down, router without a live key). */
export type RouterLiveStatus =
  | { available: true; providers: LiveProviderState[]; queued: number; checkedAt: string }
  | { available: false; reason: string; providers: LiveProviderState[]; queued: number; checkedAt: string };

const STATUS_TIMEOUT_MS = 3_000;

/** PROXY_INTERNAL_URL, else the proxy's port (PORT, which `npm start` gives every process) on loopback. */
export function proxyInternalUrl(): string {
  return (process.env.PROXY_INTERNAL_URL ?? `http://127.0.0.1:${process.env.PORT ?? 9500}`).replace(/\/+$/, '');
}

const unavailable = (reason: string): RouterLiveStatus => ({ available: false, reason, providers: [], queued: 0, checkedAt: new Date().toISOString() });

export async function readProxyStatus(routerId: string): Promise<RouterLiveStatus> {
  let key: string;
  try {
    key = (await currentRouterKeyPlaintext(routerId)).plaintextKey;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return unavailable('the router has no live key, and the proxy shows live state only to a key of the router');
    throw error;
  }
  let response: Response;
  try {
    // A bearer header rather than `?token=`: the key stays out of any URL the proxy might log.
    response = await fetch(`${proxyInternalUrl()}/v1/status`, { headers: { Authorization: `Bearer ${key}` }, cache: 'no-store', signal: AbortSignal.timeout(STATUS_TIMEOUT_MS) });
  } catch (error) {
    log.warn({ err: (error as Error).message, proxy: proxyInternalUrl() }, 'proxy status unreachable');
    return unavailable(`the proxy did not answer at ${proxyInternalUrl()}`);
  }
  if (!response.ok) return unavailable(`the proxy answered HTTP ${response.status}`);
  const body = (await response.json().catch(() => null)) as { ok?: boolean; providers?: LiveProviderState[]; queued?: number } | null;
  if (!body?.ok || !Array.isArray(body.providers)) return unavailable('the proxy sent an answer this dashboard does not understand');
  return {
    available: true,
    providers: body.providers.map((p) => ({
      id: p.id, slug: p.slug, healthy: p.healthy, priority: p.priority, active: p.active, maxConcurrent: p.maxConcurrent, cooldownUntil: p.cooldownUntil,
    })),
    queued: body.queued ?? 0,
    checkedAt: new Date().toISOString(),
  };
}
