// lib/db/migrate.ts on the test stack's PostgreSQL (already migrated by the stack's start): applying
// again changes nothing, leaves no migration lock held and no timer pending. The engine's connection
// used to stay open holding PostgreSQL's migration advisory lock, so every later migrator
// (`npm run seed` beside `npm start`) waited out a 10 s lock timeout, and its never-cleared timers
// kept `npm run seed` and `npm run db:migrate` alive 10 s after their work.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { db } from '../../lib/db';
import { applyMigrations } from '../../lib/db/migrate';
import { programRunner } from '../../scripts/lib/processes';

const run = promisify(execFile);
const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
/** Advisory locks held by the connections named `name` (other test files may migrate at the same time). */
async function advisoryLocks(name: string): Promise<number> {
  const [row] = await db.$queryRaw<{ count: bigint }[]>`
    SELECT count(*) FROM pg_locks JOIN pg_stat_activity USING (pid) WHERE locktype = 'advisory' AND granted AND application_name = ${name}`;
  return Number(row!.count);
}

test('applying migrations to an up-to-date database applies none, releases the lock and leaves no timer', { timeout: 60_000 }, async () => {
  const name = `migrate-test-${process.pid}`;
  const url = `${process.env.DATABASE_URL!}${process.env.DATABASE_URL!.includes('?') ? '&' : '?'}application_name=${name}`;
  const timersBefore = timers();
  assert.deepEqual(await applyMigrations(url), []);
  assert.equal(await advisoryLocks(name), 0, 'the migration lock is released with the call, not held for the life of the process');
  assert.equal(timers(), timersBefore, 'no timer of the engine left pending');
  // A second migrator right after (another process of the install) takes the lock at once.
  const second = run(process.execPath, [programRunner, 'scripts/migrate.ts'], { env: { ...process.env, DATABASE_URL: url } });
  assert.match((await second).stdout, /the database is up to date/);
});
