// The gateway's webhooks (docs/gateway.md, "Events"): every event is POSTed to each webhook that
// wants it, in the background, on the gateway's retry schedule (lib/webhooks/schedule.ts: first
// attempt at once, retries 1, 5 and 15 s after the previous failure, each attempt cut at 5 s);
// after the last failure a warning is logged and the delivery is dropped. Nothing here is awaited
// by the connect path: a slow receiver never slows a session.
import { EnvHttpProxyAgent, fetch, type Dispatcher } from 'undici';
import { log } from '../../lib/log';
import { retry } from '../../lib/retry/retry';
import { GATEWAY_SCHEDULE, maxAttempts, TEST_SCHEDULE, type RetrySchedule } from '../../lib/webhooks/schedule';
import type { WebhookEvent } from './config';
import { maskUrl } from './webhook-store';

export interface WebhookPayload {
  version: '1';
  timestamp: string;
  event: WebhookEvent;
  status: 'firing';
  source: string;
  data: Record<string, unknown>;
}

export interface Target {
  url: string;
  events: readonly WebhookEvent[] | null;
}

export type AttemptResult = { ok: true; status: number } | { ok: false; error: string };

export class EventSender {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly source: string,
    private readonly targets: () => readonly Target[],
    /** The retries and each attempt's deadline (tests shorten them). */
    private readonly schedule: RetrySchedule = GATEWAY_SCHEDULE,
    /** The operator's outbound proxy, when HTTP(S)_PROXY is set. */
    private readonly dispatcher: Dispatcher | undefined = undefined,
  ) {}

  payload(event: WebhookEvent, data: Record<string, unknown>): WebhookPayload {
    return { version: '1', timestamp: new Date().toISOString(), event, status: 'firing', source: this.source, data };
  }

  /** Queues the event for every webhook that wants it; returns at once. */
  emit(event: WebhookEvent, data: Record<string, unknown> = {}): void {
    const body = JSON.stringify(this.payload(event, data));
    for (const target of this.targets()) {
      if (target.events && !target.events.includes(event)) continue;
      const delivery = this.deliver(target.url, event, body).finally(() => this.inFlight.delete(delivery));
      this.inFlight.add(delivery);
    }
  }

  /** One attempt, no retries: the dashboard's Test button. */
  attempt(url: string, body: string): Promise<AttemptResult> {
    return post(url, body, this.dispatcher, TEST_SCHEDULE.attemptTimeoutMs);
  }

  /** Resolves when every delivery started so far has finished, or after `ms`. */
  async settle(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  private async deliver(url: string, event: WebhookEvent, body: string): Promise<void> {
    const attempt = async () => {
      const result = await post(url, body, this.dispatcher, this.schedule.attemptTimeoutMs);
      if (!result.ok) throw new Error(result.error);
    };
    await retry(attempt, {
      delaysMs: this.schedule.retryDelaysMs,
      onRetry: (error, number) =>
        log.debug({ webhook: maskUrl(url), event, attempt: number, error: (error as Error).message }, 'webhook attempt failed; retrying'),
    }).catch((error: Error) =>
      log.warn({ webhook: maskUrl(url), event, attempts: maxAttempts(this.schedule), error: error.message }, 'webhook delivery failed; giving up'),
    );
  }
}

/** HTTP_PROXY, HTTPS_PROXY and NO_PROXY of the gateway's environment for webhook deliveries; undefined when none is set. */
export function outboundAgent(env: Readonly<Record<string, string | undefined>>): Dispatcher | undefined {
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy;
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy;
  if (!httpProxy && !httpsProxy) return undefined;
  return new EnvHttpProxyAgent({ httpProxy, httpsProxy, noProxy: env.NO_PROXY ?? env.no_proxy ?? '' });
}

async function post(url: string, body: string, dispatcher: Dispatcher | undefined, timeoutMs: number): Promise<AttemptResult> {
  try {
    const response = await fetch(url, {
      dispatcher,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'browser-gateway-webhooks/1' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    await response.body?.cancel();
    return response.status >= 200 && response.status < 300 ? { ok: true, status: response.status } : { ok: false, error: `HTTP ${response.status}` };
  } catch (error) {
    const cause =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${timeoutMs / 1000} s`
        : ((error as { cause?: Error }).cause?.message ?? (error as Error).message);
    return { ok: false, error: cause };
  }
}
