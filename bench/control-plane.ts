// bench/control-plane — GET /v1/me and GET /v1/workspaces with 50 concurrent bearer clients,
// beside GET /api/health of the same Next server (a constant: the framework's floor), in one run.
// Rounds are interleaved so that machine noise hits every target alike.
//   npx tsx bench/control-plane.ts [--seconds 5] [--rounds 3] [--concurrency 50]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../scripts/lib/ports';
import { startStack } from '../scripts/lib/stack';
import { closedLoop, fmt, type LoadResult } from './lib';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' }, concurrency: { type: 'string', default: '50' } },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'br-bench-'));
const [webPort, proxyPort, pgPort, poolPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
const stack = await startStack({
  dataDir,
  webPort,
  proxyPort,
  poolPort,
  embeddedPostgresPort: pgPort,
  host: '127.0.0.1',
  quiet: true,
  log: (l) => console.error(`[bench] ${l}`),
  extraEnv: { LOG_LEVEL: 'warn' },
});
try {
  process.env.DATABASE_URL = stack.env.DATABASE_URL;
  process.env.ENCRYPTION_KEY = stack.env.ENCRYPTION_KEY;
  const { seedUser } = await import('../lib/users/seed-user');
  const { accessToken } = await seedUser({ email: 'bench@example.test', password: 'benchmark password' });
  const auth = { headers: { authorization: `Bearer ${accessToken}` } };
  const targets: [string, string, RequestInit][] = [
    ['floor  GET /api/health', `${stack.webUrl}/api/health`, {}],
    ['GET /v1/me', `${stack.webUrl}/v1/me`, auth],
    ['GET /v1/workspaces', `${stack.webUrl}/v1/workspaces`, auth],
  ];
  for (const [name, url, init] of targets) await closedLoop(name, url, init, concurrency, 1); // warm-up
  const totals = new Map<string, LoadResult[]>();
  for (let round = 0; round < rounds; round++) {
    for (const [name, url, init] of targets) {
      const result = await closedLoop(name, url, init, concurrency, seconds);
      totals.set(name, [...(totals.get(name) ?? []), result]);
    }
  }
  const summary = [...totals].map(([name, results]) => {
    const requests = results.reduce((s, r) => s + r.requests, 0);
    const time = results.reduce((s, r) => s + r.seconds, 0);
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return {
      name,
      rps: requests / time,
      p50: median(results.map((r) => r.p50)),
      p99: median(results.map((r) => r.p99)),
      errors: results.reduce((s, r) => s + r.errors, 0),
    };
  });
  const floor = summary[0]!;
  console.log(`control plane, ${concurrency} concurrent clients, ${rounds} × ${seconds} s per target, ${os.cpus().length} cores`);
  console.log('target                    req/s    p50 ms   p99 ms   req/s vs floor  p50 vs floor  errors');
  for (const row of summary) {
    console.log(
      `${row.name.padEnd(24)} ${fmt(row.rps, 0).padStart(6)}  ${fmt(row.p50).padStart(7)}  ${fmt(row.p99).padStart(7)}   ${fmt(row.rps / floor.rps, 2).padStart(13)}  ${fmt(row.p50 / floor.p50, 2).padStart(12)}  ${row.errors}`,
    );
  }
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
