// The web process's client of the proxy's internal endpoints: where the proxy is, and one router's
// live provider state, read with the internal service token (lib/crypto/internal-token.ts). Not
// with a router key: a router may have none live, and dashboard polling must neither mark a key
// used nor count failures against an address the user's own clients may share.
import { internalServiceToken } from '../crypto/internal-token';
import { log } from '../log';
import { routerStatusAnswerSchema, type RouterLiveStatus } from '../routers/live-status';
import { settings } from '../config/settings';

const STATUS_TIMEOUT_MS = 3_000;

/** PROXY_INTERNAL_URL, else the proxy's port (PORT, which `npm start` gives every process) on loopback. */
export function proxyInternalUrl(): string {
  return (settings().proxyInternalUrl ?? `http://127.0.0.1:${settings().port}`).replace(/\/+$/, '');
}

const unavailable = (reason: string): RouterLiveStatus => ({ available: false, reason, providers: [], queued: 0, checkedAt: new Date().toISOString() });

export async function readProxyStatus(routerId: string): Promise<RouterLiveStatus> {
  let response: Response;
  try {
    response = await fetch(`${proxyInternalUrl()}/internal/routers/${encodeURIComponent(routerId)}/status`, {
      headers: { Authorization: `Bearer ${internalServiceToken()}` },
      cache: 'no-store',
      signal: AbortSignal.timeout(STATUS_TIMEOUT_MS),
    });
  } catch (error) {
    log.warn({ err: (error as Error).message, proxy: proxyInternalUrl() }, 'proxy status unreachable');
    return unavailable(`the proxy did not answer at ${proxyInternalUrl()}`);
  }
  if (!response.ok) return unavailable(`the proxy answered HTTP ${response.status}`);
  const answer = routerStatusAnswerSchema.safeParse(await response.json().catch(() => null));
  if (!answer.success) return unavailable('the proxy sent an answer this dashboard does not understand');
  return { available: true, providers: answer.data.providers, queued: answer.data.queued, checkedAt: new Date().toISOString() };
}
