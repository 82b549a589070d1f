// The job worker of a proxy process (docs/recordings.md, "Jobs"): recording encodes, at most
// ENCODE_CONCURRENCY at a time in this process (default 1: an encode keeps two cores busy), their
// dead-letter queue, and the hourly retention sweep of recordings, traces and sessions' downloads
// (one job, queued on RETENTION_QUEUE, whose name predates traces), throttled to one an hour
// across every process so that one proxy runs it. It also runs pg-boss's maintenance every
// JOBS_MAINTENANCE_INTERVAL_S: active jobs past their expiry (their worker died) go back to retry.
import { hostname } from 'node:os';
import { RECORDINGS, TRACES } from '../captures/kinds';
import { sweepExpired } from '../captures/remove';
import { settings } from '../config/settings';
import { sweepExpiredDownloads } from '../downloads/store';
import type PgBoss from 'pg-boss';
import { log as rootLog, type Logger } from '../log';
import { removeStaleScratch } from '../recordings/encode-video';
import { ensureQueue, getBoss, jobsSchema } from './boss';
import { ENCODE_GIVEN_UP_QUEUE, ENCODE_QUEUE, encodeWakers, ensureEncodeQueues, runEncodeGivenUp, runEncodeJob, type EncodeJobData } from './encode-recording';
import { runQueue, type QueueRunner } from './run-queue';

export const RETENTION_QUEUE = 'recording-retention';
const HOUR_S = 3_600;

export interface JobWorkerOptions {
  /** Encodes at once in this process; default ENCODE_CONCURRENCY, else 1. */
  encodeConcurrency?: number;
  /** How often an idle worker looks for jobs queued by other processes; default JOBS_POLL_MS. */
  pollMs?: number;
  /** Queue the retention sweep (at start, then every 15 minutes, one job per clock hour across processes); default true. */
  retention?: boolean;
}

export interface JobWorker {
  /** Encodes in progress here. */
  readonly encoding: number;
  /** Stops taking jobs; encodes in progress are stopped and handed back for another worker to retry at once. */
  stop(): Promise<void>;
}

export async function startJobWorker(options: JobWorkerOptions = {}): Promise<JobWorker> {
  const boss = await getBoss();
  const log = rootLog.child({ component: 'jobs', worker: `${hostname()}:${process.pid}` });
  // What a worker killed mid-encode left in the temporary directory.
  void removeStaleScratch().catch((error: Error) => log.warn({ err: error.message }, 'could not clear old encoder scratch directories'));
  await ensureEncodeQueues(boss);
  await ensureQueue(boss, RETENTION_QUEUE);
  const common = { pollMs: options.pollMs ?? settings().jobsPollMs, schema: jobsSchema(), log };
  const encodes = runQueue<EncodeJobData>(boss, ENCODE_QUEUE, runEncodeJob, {
    ...common,
    concurrency: options.encodeConcurrency ?? Math.max(1, settings().encodeConcurrency),
  });
  encodeWakers.add(encodes.wake);
  const runners: QueueRunner[] = [
    encodes,
    runQueue<EncodeJobData>(boss, ENCODE_GIVEN_UP_QUEUE, runEncodeGivenUp, { ...common, concurrency: 1 }),
    runQueue(
      boss,
      RETENTION_QUEUE,
      async () => ({ deleted: await sweepExpired(RECORDINGS), tracesDeleted: await sweepExpired(TRACES), downloadsDeleted: await sweepExpiredDownloads() }),
      { ...common, concurrency: 1 },
    ),
  ];

  const maintenance = startMaintenance(boss, log);
  let hourly: NodeJS.Timeout | undefined;
  if (options.retention !== false) {
    // One job per clock hour whichever process asks first; the others' sends are no-ops.
    const queueSweep = () =>
      void boss
        .sendThrottled(RETENTION_QUEUE, {}, { retryLimit: 2, retryDelay: 60 }, HOUR_S, 'sweep')
        .then(() => runners[2]!.wake())
        .catch((error: Error) => log.warn({ err: error.message }, 'could not queue the retention sweep'));
    queueSweep();
    hourly = setInterval(queueSweep, (HOUR_S / 4) * 1000);
    hourly.unref();
  }

  return {
    get encoding() {
      return encodes.active;
    },
    async stop() {
      clearInterval(hourly);
      encodeWakers.delete(encodes.wake);
      await Promise.all(runners.map((runner) => runner.stop()));
      await maintenance.stop();
    },
  };
}

/**
 * pg-boss's maintenance (jobs of dead workers back to retry), now and every
 * JOBS_MAINTENANCE_INTERVAL_S, one run at a time; `stop` ends the timer and waits for a run under way.
 */
function startMaintenance(boss: PgBoss, log: Logger): { stop(): Promise<void> } {
  let maintaining: Promise<void> | null = null;
  const maintain = () => {
    maintaining ??= boss
      .maintain()
      .catch((error: Error) => log.warn({ err: error.message }, 'job queue maintenance failed'))
      .finally(() => (maintaining = null));
  };
  maintain();
  const timer = setInterval(maintain, settings().jobsMaintenanceIntervalS * 1000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await maintaining;
    },
  };
}
