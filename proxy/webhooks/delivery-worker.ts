// Delivers the webhook outbox. Any number of workers (one per proxy process, more in tests) share
// a queue: each claims due rows with SKIP LOCKED under a lease, so no delivery is attempted by two
// workers at once, and a worker that dies leaves its rows to come back when the lease runs out.
// Attempts run in the background with a bounded number in flight, a per-attempt timeout and at
// most `perWebhook` in flight per webhook, so a slow receiver never holds up the others, and
// nothing here is ever awaited by the connect path.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { settings } from '../../lib/config/settings';
import { decryptText } from '../../lib/crypto/encryption';
import { listen, type Listener } from '../../lib/db/listen';
import { log as rootLog } from '../../lib/log';
import { retry } from '../../lib/retry/retry';
import { claimDueDeliveries, CLOUD_QUEUE, settleAttempt, WEBHOOK_CHANNEL, type ClaimedDelivery } from '../../lib/webhooks/outbox';
import { cloudSchedule, nextStep, type NextStep, type RetrySchedule } from '../../lib/webhooks/schedule';
import { deliveryHeaders, sendWebhook, type AttemptOutcome } from '../../lib/webhooks/send-webhook';

export interface WebhookWorkerOptions {
  /** Which deliveries (and so which schedule): `cloud` for the schedule of docs/api.md. */
  queue?: string;
  schedule?: RetrySchedule;
  /** Attempts in flight at once. */
  concurrency?: number;
  /** Attempts in flight at once for one webhook. */
  perWebhook?: number;
  /** How long a claim holds a delivery; must outlast an attempt and its bookkeeping. */
  leaseMs?: number;
  /** Fallback scan for rows no NOTIFY announced (retries scheduled by other workers, expired leases). */
  pollMs?: number;
  workerId?: string;
}

export interface WebhookWorker {
  readonly workerId: string;
  readonly inFlight: number;
  /** Look for due deliveries now. */
  wake(): void;
  /** Stops claiming and waits for the attempts in flight to finish and be recorded. */
  stop(): Promise<void>;
}

const SETTLE_RETRY_MS = [200, 1_000, 3_000];
/** How often a worker looks for due deliveries nobody woke it for (its own retries have a timer). */
export const DEFAULT_POLL_MS = 1_000;
const WAKE_MARGIN_MS = 25;

export function startWebhookWorker(options: WebhookWorkerOptions = {}): WebhookWorker {
  const queue = options.queue ?? CLOUD_QUEUE;
  const schedule = options.schedule ?? cloudSchedule(settings());
  const concurrency = options.concurrency ?? 16;
  const perWebhook = options.perWebhook ?? 2;
  const leaseMs = options.leaseMs ?? schedule.attemptTimeoutMs + 25_000;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  if (leaseMs <= schedule.attemptTimeoutMs) throw new Error('leaseMs must be longer than the attempt timeout');
  const log = rootLog.child({ component: 'webhooks', queue, workerId });

  let stopped = false;
  let claiming: Promise<void> | null = null;
  let claimAgain = false;
  const inFlight = new Map<string, Promise<void>>();
  const perWebhookCount = new Map<string, number>();
  // Every retry this worker scheduled gets its own wake-up: one timer, armed for the earliest
  // time still owed, re-armed for the next after it fires. (Keeping only the earliest lost the
  // others: a retry due later then waited for the fallback poll, up to `pollMs` late.)
  let wakeTimer: NodeJS.Timeout | undefined;
  let armedFor = Infinity;
  const wakeTimes: number[] = [];

  const tick = (): void => {
    if (stopped) return;
    if (claiming) {
      claimAgain = true;
      return;
    }
    const free = concurrency - inFlight.size;
    if (free <= 0) return;
    const excludeWebhookIds = [...perWebhookCount].filter(([, n]) => n >= perWebhook).map(([id]) => id);
    claiming = claimDueDeliveries({ queue, workerId, limit: free, leaseMs, perWebhook, excludeWebhookIds })
      // Claimed rows are attempted even if stop() came meanwhile: left alone they would wait out the lease.
      .then((rows) => rows.forEach(run))
      .catch((error: Error) => log.warn({ err: error.message }, 'claiming webhook deliveries failed'))
      .finally(() => {
        claiming = null;
        if (claimAgain) {
          claimAgain = false;
          tick();
        }
      });
  };

  const arm = (): void => {
    const next = wakeTimes[0];
    if (stopped || next === undefined || next >= armedFor) return;
    clearTimeout(wakeTimer);
    armedFor = next;
    wakeTimer = setTimeout(
      () => {
        armedFor = Infinity;
        const now = Date.now();
        while (wakeTimes.length > 0 && wakeTimes[0]! <= now) wakeTimes.shift();
        tick();
        arm();
      },
      Math.max(0, next - Date.now()),
    );
    wakeTimer.unref();
  };

  const wakeIn = (ms: number): void => {
    const at = Date.now() + ms;
    const index = wakeTimes.findIndex((t) => t > at);
    wakeTimes.splice(index === -1 ? wakeTimes.length : index, 0, at);
    arm();
  };

  const run = (delivery: ClaimedDelivery): void => {
    perWebhookCount.set(delivery.webhookId, (perWebhookCount.get(delivery.webhookId) ?? 0) + 1);
    const done = attempt(delivery)
      .catch((error: Error) => log.error({ deliveryId: delivery.id, err: error.message }, 'webhook attempt crashed'))
      .finally(() => {
        inFlight.delete(delivery.id);
        const left = (perWebhookCount.get(delivery.webhookId) ?? 1) - 1;
        if (left > 0) perWebhookCount.set(delivery.webhookId, left);
        else perWebhookCount.delete(delivery.webhookId);
        tick();
      });
    inFlight.set(delivery.id, done);
  };

  const attempt = async (delivery: ClaimedDelivery): Promise<void> => {
    const number = delivery.attempts + 1;
    const attemptedAt = new Date();
    let outcome: AttemptOutcome;
    try {
      const url = decryptText(delivery.urlEncrypted);
      outcome = await sendWebhook({
        url,
        body: delivery.body,
        headers: deliveryHeaders({ webhookId: delivery.webhookId, deliveryId: delivery.id, event: delivery.event, attempt: number }),
        timeoutMs: schedule.attemptTimeoutMs,
      });
    } catch {
      outcome = { ok: false, statusCode: null, error: 'the stored address could not be decrypted', durationMs: 0 };
    }
    const step = nextStep(schedule, number, outcome);
    const settled = await settle(delivery, number, outcome, step, attemptedAt);
    const fields = {
      deliveryId: delivery.id,
      webhookId: delivery.webhookId,
      event: delivery.event,
      attempt: number,
      statusCode: outcome.statusCode,
      error: outcome.error,
    };
    if (!settled) log.warn(fields, 'webhook attempt not recorded: the claim was lost (lease expired, or the delivery was cancelled or deleted)');
    // A little after the row is due on the database clock: a timer that fires a millisecond early
    // would find nothing and leave the retry to the next poll, a second late.
    else if (step.status === 'pending') wakeIn(step.retryInMs + WAKE_MARGIN_MS);
    else if (step.status === 'failed') log.warn(fields, 'webhook delivery given up after its last attempt');
  };

  // The attempt happened; losing its record would send it again after the lease, so try harder.
  const settle = (delivery: ClaimedDelivery, number: number, outcome: AttemptOutcome, step: NextStep, attemptedAt: Date): Promise<boolean> =>
    retry(() => settleAttempt({ delivery, attempt: number, outcome, step, attemptedAt }), { delaysMs: SETTLE_RETRY_MS });

  const poller = setInterval(tick, pollMs);
  poller.unref();
  // A claim at once, and another once LISTEN is in place: a delivery enqueued in between sent
  // its NOTIFY to nobody, and would otherwise wait for the poll.
  const listener: Listener = listen(
    [WEBHOOK_CHANNEL],
    (_channel, payload) => {
      if (payload === queue) tick();
    },
    tick,
  );
  tick();

  return {
    workerId,
    get inFlight() {
      return inFlight.size;
    },
    wake: tick,
    async stop() {
      stopped = true;
      clearInterval(poller);
      clearTimeout(wakeTimer);
      await listener.stop();
      await claiming;
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}
