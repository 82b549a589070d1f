// bench/billing — what charging costs, in one run against one embedded PostgreSQL:
//  1. session-end latency: SessionWriter.finish for a session within the month's free count (no
//     charge: the end is one UPDATE) against one past it (the same statement also appends the
//     ledger entry, moves the wallet and the day's ledger row). Target: ≤ 1 ms added at p50.
//  2. charges per second on ONE workspace under contention (every charge waits for the wallet
//     row's lock) against the same load spread over as many workspaces as there are clients.
// Rounds alternate so that machine noise hits both sides alike.
//   npx tsx bench/billing.ts [--rounds 5] [--sessions 300] [--seconds 3] [--concurrency 16]
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../scripts/lib/ports';
import { fmt, percentile } from './lib';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    sessions: { type: 'string', default: '300' },
    seconds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
  },
});
const rounds = Number(values.rounds);
const sessionsPerRound = Number(values.sessions);
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);

const scratch = mkdtempSync(path.join(os.tmpdir(), 'br-bench-billing-'));
delete process.env.DATABASE_URL;
const { prepareDatabase } = await import('../lib/runtime/database');
const database = await prepareDatabase({ dataDir: scratch, postgresPassword: randomUUID(), embeddedPort: await freePort() });
process.env.DATABASE_URL = database.url;
process.env.DATABASE_POOL_SIZE = String(concurrency + 4);
process.env.LOG_LEVEL = 'warn';
process.env.ENCRYPTION_KEY = randomBytes(32).toString('base64'); // the workspaces' router keys are stored encrypted
const { db } = await import('../lib/db');
const { post } = await import('../lib/billing/ledger');
const { SessionWriter, newSessionId } = await import('../lib/sessions/session-writer');
const { createWorkspace } = await import('../lib/workspaces/create-workspace');
const { usagePeriod } = await import('../lib/billing/period');

try {
  const user = await db.user.create({ data: { email: `bench-${randomUUID()}@example.test`, name: 'Bench', passwordHash: 'x', emailVerifiedAt: new Date() } });
  const newWorkspace = (name: string) => db.$transaction((tx) => createWorkspace(tx, { ownerId: user.id, name }));
  const { workspace: free, router } = await newWorkspace('Free');
  const { workspace: paid, router: paidRouter } = await newWorkspace('Charged');
  const period = usagePeriod(new Date());
  // The charged workspace is far past its free count; the free one is reset below it every round.
  await db.usageCounter.create({ data: { workspaceId: paid.id, period, sessions: 1_000_000 } });
  await post(db, paid.id, [{ kind: 'grant', amountMillicents: 1_000_000_000n, cause: `grant:${randomUUID()}` }]);

  async function endLatencies(workspaceId: string, routerId: string, count: number): Promise<number[]> {
    const latencies: number[] = [];
    for (let i = 0; i < count; i++) {
      const writer = new SessionWriter({
        id: newSessionId(),
        workspaceId,
        routerId,
        provider: { id: 'bench', slug: 'bench', name: 'Bench' },
        kind: 'route',
        proxyInstanceId: 'bench',
        startedAt: new Date(),
      });
      await (writer as unknown as { started: Promise<unknown> }).started; // the start is not what is measured
      const t0 = performance.now();
      await writer.finish({ state: 'closed', reason: null }, { bytesIn: 1_000, bytesOut: 2_000, messages: 10 });
      latencies.push(performance.now() - t0);
    }
    return latencies;
  }

  async function chargesPerSecond(workspaceIds: string[]): Promise<number> {
    let done = 0;
    const end = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async (_, client) => {
        const workspaceId = workspaceIds[client % workspaceIds.length]!;
        while (performance.now() < end) {
          await post(db, workspaceId, [{ kind: 'session', amountMillicents: -50n, cause: `bench:${randomUUID()}` }]);
          done++;
        }
      }),
    );
    return done / ((performance.now() - started) / 1000);
  }

  const spread = [paid.id];
  for (let i = 1; i < concurrency; i++) spread.push((await newWorkspace(`Spread ${i}`)).workspace.id);
  await endLatencies(free.id, router.id, 50); // warm-up
  await endLatencies(paid.id, paidRouter.id, 50);
  await chargesPerSecond([paid.id]);

  const off: number[] = [];
  const on: number[] = [];
  const hot: number[] = [];
  const cold: number[] = [];
  for (let round = 0; round < rounds; round++) {
    await db.usageCounter.upsert({
      where: { workspaceId_period: { workspaceId: free.id, period } },
      create: { workspaceId: free.id, period, sessions: 0 },
      update: { sessions: 0 },
    });
    off.push(...(await endLatencies(free.id, router.id, sessionsPerRound)));
    on.push(...(await endLatencies(paid.id, paidRouter.id, sessionsPerRound)));
    hot.push(await chargesPerSecond([paid.id]));
    cold.push(await chargesPerSecond(spread));
  }
  off.sort((a, b) => a - b);
  on.sort((a, b) => a - b);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const charged = await db.walletEntry.count({ where: { workspaceId: paid.id, kind: 'session', sessionLogId: { not: null } } });
  console.log(`billing, ${rounds} rounds, ${os.cpus().length} cores`);
  console.log(`session end (${off.length} each)     p50 ms   p99 ms`);
  console.log(`  no charge (within free)    ${fmt(percentile(off, 50), 3).padStart(7)}  ${fmt(percentile(off, 99), 3).padStart(7)}`);
  console.log(`  charged (past free)        ${fmt(percentile(on, 50), 3).padStart(7)}  ${fmt(percentile(on, 99), 3).padStart(7)}`);
  console.log(
    `  added by charging at p50: ${fmt(percentile(on, 50) - percentile(off, 50), 3)} ms (ratio ${fmt(percentile(on, 50) / percentile(off, 50), 2)}); ${charged} session charges written`,
  );
  console.log(`charges/s, ${concurrency} clients        median of rounds`);
  console.log(`  one workspace (contended)  ${fmt(median(hot), 0).padStart(7)}`);
  console.log(`  ${concurrency} workspaces (spread)    ${fmt(median(cold), 0).padStart(7)}`);
  console.log(`  contended / spread: ${fmt(median(hot) / median(cold), 2)}`);
} finally {
  await db.$disconnect();
  await database.stop();
  rmSync(scratch, { recursive: true, force: true });
}
