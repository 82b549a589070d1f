// One delivery attempt: POST the body, wait for a 2xx within the attempt timeout, never follow
// redirects, never read the receiver's body. Failures come back as data, never as throws, and
// never quote the URL (it carries the receiver's secret). Every attempt connects under the egress
// policy (lib/net/egress-policy.ts): the receiver's name is resolved and checked each time.
import { egressFetch } from '../net/egress-connect';
import { EgressRefusedError, egressPolicy } from '../net/egress-policy';

export const USER_AGENT = 'browser-router-webhooks/1';

export interface DeliveryHeaders {
  webhookId: string;
  deliveryId: string;
  event: string;
  attempt: number;
}

/** The delivery id is the same on every attempt, so a receiver can drop the retries it already has. */
export function deliveryHeaders(h: DeliveryHeaders): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Webhook-Id': h.webhookId,
    'X-Webhook-Delivery-Id': h.deliveryId,
    'X-Webhook-Event': h.event,
    'X-Webhook-Attempt': String(h.attempt),
  };
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

function describeFailure(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; cause?: { code?: string; name?: string } };
  if (err?.cause instanceof EgressRefusedError) return `refused by the egress policy: ${err.cause.reason}`;
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return `no answer within ${seconds(timeoutMs)}`;
  const code = err?.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset by the receiver';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return `no answer within ${seconds(timeoutMs)}`;
  if (typeof code === 'string' && /CERT|SSL|TLS/i.test(code)) return `TLS error (${code})`;
  return code ? `request failed (${code})` : 'request failed';
}

export async function sendWebhook(input: { url: string; body: string; headers: Record<string, string>; timeoutMs: number }): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await egressFetch(egressPolicy(), input.url, {
      method: 'POST',
      headers: input.headers,
      body: input.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(input.timeoutMs),
    });
    const durationMs = elapsed();
    // The receiver's answer is not ours to read; closing it frees the connection.
    await response.body?.cancel().catch(() => {});
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      statusCode: response.status,
      error: ok ? null : `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`.slice(0, 200),
      durationMs,
    };
  } catch (error) {
    return { ok: false, statusCode: null, error: describeFailure(error, input.timeoutMs), durationMs: elapsed() };
  }
}
