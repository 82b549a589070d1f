// The one way the product tries work again: a first attempt at once, then one retry after each
// delay of a schedule given as data, giving up with the last error. What may be retried is the
// caller's to say; an abort ends the waiting at once. The durable retries (webhook deliveries,
// encodes) are rescheduled in the database instead and read the same kind of schedule.

export interface RetryOptions {
  /** The delay before each retry; its length is how many retries there are. */
  delaysMs: readonly number[];
  /** Whether this failure is worth another attempt (default: every failure). */
  retryable?: (error: unknown) => boolean;
  /** Told of each failure that is retried, before the wait. */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  signal?: AbortSignal;
}

/** Runs `work` (attempt numbers from 1) until it resolves, a failure is not retryable, or the delays run out. */
export async function retry<T>(work: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      const delayMs = options.delaysMs[attempt - 1];
      if (delayMs === undefined || options.signal?.aborted || (options.retryable && !options.retryable(error))) throw error;
      options.onRetry?.(error, attempt, delayMs);
      await pause(delayMs, options.signal);
    }
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
    };
    const aborted = () => {
      done();
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
