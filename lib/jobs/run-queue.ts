// Runs one queue's jobs in this process, at most `concurrency` at a time. Each job's handler gets a
// signal that aborts (a) a little before the job's expiry, so a stuck job stops here before
// pg-boss hands it to another worker, and (b) when the worker stops: then the job is handed back
// for an immediate retry (its attempt not counted) instead of waiting out its expiry. A worker
// killed outright leaves its jobs active; pg-boss's maintenance retries them after their expiry.
import type PgBoss from 'pg-boss';
import type { Logger } from '../log';

export interface JobContext<T> {
  job: PgBoss.JobWithMetadata<T>;
  signal: AbortSignal;
  /** No retry follows a failure of this attempt. */
  lastAttempt: boolean;
}

/** Resolves with the job's output (it completes); throws to fail the attempt (retried while retries are left). */
export type JobHandler<T> = (context: JobContext<T>) => Promise<object | void>;

/** The abort reason when the worker stops. */
export class WorkerStopping extends Error {
  constructor() {
    super('the worker is stopping');
  }
}

/** The abort reason when a job outlives its time. */
export class JobTimedOut extends Error {}

export interface QueueRunner {
  readonly active: number;
  /** Look for jobs now (one was just queued in this process). */
  wake(): void;
  /** Stops fetching, aborts the jobs in progress and hands them back. */
  stop(): Promise<void>;
}

export interface RunQueueOptions {
  concurrency: number;
  /** How often an idle runner looks for jobs. */
  pollMs: number;
  schema: string;
  log: Logger;
}

/** Before the expiry: enough for the handler to clean up and record the failure. */
const expiryMarginMs = (expiryMs: number) => Math.min(5_000, expiryMs * 0.1);

export function runQueue<T>(boss: PgBoss, queue: string, handler: JobHandler<T>, options: RunQueueOptions): QueueRunner {
  return new Runner(boss, queue, handler, options);
}

class Runner<T> implements QueueRunner {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private stopping = false;
  private wakeUp: (() => void) | null = null;
  /** A wake while busy fetching: look again before sleeping. */
  private wokenBusy = false;
  private readonly loop: Promise<void>;

  constructor(
    private readonly boss: PgBoss,
    private readonly queue: string,
    private readonly handler: JobHandler<T>,
    private readonly options: RunQueueOptions,
  ) {
    this.loop = this.fetchLoop();
  }

  get active(): number {
    return this.running.size;
  }

  readonly wake = (): void => {
    if (this.wakeUp) this.wakeUp();
    else this.wokenBusy = true;
  };

  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeUp?.();
    for (const { controller } of this.running.values()) controller.abort(new WorkerStopping());
    await this.loop;
    await Promise.all([...this.running.values()].map((job) => job.done));
  }

  private async fetchLoop(): Promise<void> {
    while (!this.stopping) {
      const free = this.options.concurrency - this.running.size;
      if (free > 0) {
        const jobs = await this.boss.fetch<T>(this.queue, { batchSize: free, includeMetadata: true }).catch((error: Error) => {
          this.options.log.warn({ queue: this.queue, err: error.message }, 'fetching jobs failed');
          return [];
        });
        if (this.stopping) {
          await Promise.all(jobs.map((job) => this.handBack(job.id)));
          break;
        }
        jobs.forEach((job) => this.start(job));
        if (jobs.length > 0) continue;
      }
      if (this.wokenBusy && this.running.size < this.options.concurrency) {
        this.wokenBusy = false;
        continue;
      }
      await this.idle();
    }
  }

  private idle(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.options.pollMs);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => (this.wakeUp = null));
  }

  private start(job: PgBoss.JobWithMetadata<T>): void {
    const { boss, queue, options } = this;
    const controller = new AbortController();
    const expiryMs = Number(job.expireInSeconds) * 1000;
    const timer = setTimeout(
      () => controller.abort(new JobTimedOut(`it took longer than ${Math.round(expiryMs / 1000)} s`)),
      expiryMs - expiryMarginMs(expiryMs),
    );
    const lastAttempt = job.retryCount >= job.retryLimit;
    const done = this.handler({ job, signal: controller.signal, lastAttempt })
      .then(
        (output) => boss.complete(queue, job.id, output ?? undefined),
        (error: Error) => {
          if (controller.signal.reason instanceof WorkerStopping) return this.handBack(job.id);
          options.log.warn({ queue, jobId: job.id, attempt: job.retryCount + 1, lastAttempt, err: error.message }, 'job failed');
          return boss.fail(queue, job.id, { message: error.message });
        },
      )
      .then(
        () => {},
        (error: Error) => options.log.error({ queue, jobId: job.id, err: error.message }, 'could not record the end of a job (it is retried after its expiry)'),
      )
      .finally(() => {
        clearTimeout(timer);
        this.running.delete(job.id);
        this.wake();
      });
    this.running.set(job.id, { controller, done });
  }

  // Back to `retry`, due now, with its retry budget as it was: the next fetch counts the attempt
  // again (retry_count + 1), so the limit grows by one too (as pg-boss's own retry() does). One
  // statement on pg-boss's job table: pg-boss 10 has no call that releases an active job.
  private async handBack(jobId: string): Promise<void> {
    await this.boss
      .getDb()
      .executeSql(
        `UPDATE ${this.options.schema}.job SET state = 'retry', start_after = now(), retry_limit = retry_limit + 1 WHERE name = $1 AND id = $2 AND state = 'active'`,
        [this.queue, jobId],
      );
  }
}
