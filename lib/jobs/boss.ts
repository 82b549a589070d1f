// The process's PostgreSQL job queue: one pg-boss instance on DATABASE_URL, its tables in their own
// schema (JOBS_SCHEMA, default `jobs`), created at first use. Producers (the web process and the
// proxy queue encodes) only send, and the instance holds no timer and no busy connection, so a
// process that queued a job can still exit; the job worker (worker.ts) fetches and runs pg-boss's
// maintenance, which moves active jobs past their expiry (a worker that died) back to retry.
import PgBoss from 'pg-boss';
import { log } from '../log';
import { settings } from '../config/settings';
import { retry } from '../retry/retry';

/** Connections of the queue, besides Prisma's pool: a fetch loop per queue and their completions. */
const POOL_SIZE = 4;
const START_RETRY_DELAYS_MS = [250, 500];

export const jobsSchema = () => settings().jobsSchema;

const state = globalThis as unknown as { __boss?: Promise<PgBoss> };

/** The started instance (started on first call; a failed start is tried again by the next call). */
export function getBoss(): Promise<PgBoss> {
  state.__boss ??= startBoss().catch((error: Error) => {
    state.__boss = undefined;
    throw error;
  });
  return state.__boss;
}

async function startBoss(): Promise<PgBoss> {
  const options = {
    connectionString: settings().databaseUrl ?? '',
    schema: jobsSchema(),
    max: POOL_SIZE,
    application_name: 'browser-router-jobs',
    // No timers of pg-boss's own: the worker runs maintenance (worker.ts); cron schedules are not
    // used (the retention sweep is a throttled job).
    supervise: false,
    schedule: false,
    // Handed to pg's pool: idle connections do not keep the process alive.
    allowExitOnIdle: true,
  };
  // Two processes creating the schema at once: the one that lost finds it made next time.
  return retry(
    async () => {
      const boss = new PgBoss(options as PgBoss.ConstructorOptions);
      // pg-boss reports pool errors here; an 'error' event without a listener would throw.
      boss.on('error', (error: Error) => log.warn({ err: error.message }, 'job queue error'));
      try {
        await boss.start();
        return boss;
      } catch (error) {
        await boss.stop({ graceful: false }).catch(() => {});
        throw error;
      }
    },
    { delaysMs: START_RETRY_DELAYS_MS },
  );
}

/** Closes the instance's connections (a worker settles the jobs it holds first). */
export async function stopBoss(): Promise<void> {
  const boss = state.__boss;
  state.__boss = undefined;
  await (await boss?.catch(() => null))?.stop({ graceful: false });
}

/** Creates the queues once per process (pg-boss ignores a queue that exists). */
const created = new Set<string>();
export async function ensureQueue(boss: PgBoss, name: string, options: Omit<PgBoss.Queue, 'name'> = {}): Promise<void> {
  const key = `${jobsSchema()}.${name}`;
  if (created.has(key)) return;
  await boss.createQueue(name, { name, policy: 'standard', ...options });
  created.add(key);
}
