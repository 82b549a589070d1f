// bench/scale — what sharing provider concurrency through PostgreSQL costs a connect
// (docs/deployment.md), in one run against the same local Chromium and one embedded PostgreSQL:
//   - WebSocket open → first reply (Browser.getVersion): direct, through one proxy, and through
//     three proxies taking turns, on a provider with a limit (so every connect takes a lease);
//   - connects per second with 12 clients in a closed loop (open, one call, close) on one proxy and
//     spread over three, the provider's limit (6) making them queue and wake each other;
//   - the lease statements alone (take + release, one round trip each) from this process;
//   - the CDP round trip on an open session (Runtime.evaluate "1+1"): direct vs proxied, which the
//     shared state must leave unchanged.
// Proxies run as their own processes, as deployed; rounds are interleaved against machine noise.
// `--baseline <dir>`: a checkout of a release before the shared state (e.g. `git worktree add
// /tmp/base <commit>`, its `node_modules` and generated client in place): one proxy of it runs
// beside the others in the same run, as the baseline the figures are set against.
//   npx tsx bench/scale.ts [--rounds 5] [--opens 40] [--seconds 8] [--baseline <dir>]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from '../e2e/support/chromium';
import { startEmbeddedPostgres } from '../lib/db/embedded';
import { applyMigrations } from '../lib/db/migrate';
import { freePort, waitForListening } from '../scripts/lib/ports';
import { CdpConnection } from './cdp-connection';
import { fmt, percentile } from './lib';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    opens: { type: 'string', default: '40' },
    seconds: { type: 'string', default: '8' },
    baseline: { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const opensPerRound = Number(values.opens);
const seconds = Number(values.seconds);

const scratch = mkdtempSync(path.join(os.tmpdir(), 'br-bench-scale-'));
const pg = await startEmbeddedPostgres({ dataDir: scratch, port: await freePort(), password: 'bench' });
await applyMigrations(pg.url);
process.env.DATABASE_URL = pg.url;
process.env.ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
process.env.PRIVATE_NETWORK = 'allow'; // the bench's browser is on loopback
process.env.LOG_LEVEL ??= 'silent';
const children: ChildProcess[] = [];
const browser = await launchChromium();

try {
  const { seedUser } = await import('../lib/users/seed-user');
  const { addProvider, updateRouterRow } = await import('../e2e/support/providers');
  const { routerKey } = await import('../e2e/support/connect');
  const user = await seedUser({ email: 'bench-scale@example.test', password: 'benchmark password' });
  const { db } = await import('../lib/db');
  // Thousands of connects: an enterprise workspace, so no free allowance or daily cap stops them.
  await db.workspace.update({ where: { id: user.workspaceId }, data: { enterprise: true, plan: 'enterprise' } });
  await addProvider(user.workspaceId, user.routerId!, { slug: 'chromium', url: browser.wsUrl, maxConcurrent: 6 });
  await updateRouterRow(user.routerId!, { queueMaxSize: 1_000, queueTimeoutMs: 120_000, sessionIdleTimeoutMs: 840_000 });
  const key = await routerKey(user.workspaceId, user.routerId!);

  const proxies = await Promise.all([1, 2, 3, 4].map((n) => startProxyProcess(`scale-${n}`)));
  const url = (port: number) => `ws://127.0.0.1:${port}/v1/connect?token=${key}`;
  const single = [url(proxies[0]!)];
  const three = proxies.slice(1).map(url);
  const before = values.baseline ? [url(await startProxyProcess('baseline', path.resolve(values.baseline)))] : [];
  console.error(`[bench] proxies up: one alone, three together${before.length > 0 ? ', one of the baseline' : ''}`);

  const openOnce = async (target: string) => {
    const t0 = performance.now();
    const conn = await CdpConnection.open(target);
    await conn.call('Browser.getVersion');
    const ms = performance.now() - t0;
    conn.close();
    await conn.closed;
    return ms;
  };
  // Warm-up: each proxy loads the router and opens its pools.
  for (const target of [browser.wsUrl, ...single, ...three, ...before]) for (let i = 0; i < 5; i++) await openOnce(target);

  const opens = new Map<string, number[]>([
    ['direct', []],
    ...(before.length > 0 ? [['baseline proxy', []] as [string, number[]]] : []),
    ['one proxy', []],
    ['three proxies', []],
  ]);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < opensPerRound; i++) {
      opens.get('direct')!.push(await openOnce(browser.wsUrl));
      if (before.length > 0) opens.get('baseline proxy')!.push(await openOnce(before[0]!));
      opens.get('one proxy')!.push(await openOnce(single[0]!));
      opens.get('three proxies')!.push(await openOnce(three[i % 3]!));
    }
  }
  console.error('[bench] open → first reply measured');

  // Closed loop: 12 clients, provider limit 6, so half of them wait at any moment.
  const loop = async (targets: string[]) => {
    const deadline = performance.now() + seconds * 1000;
    const times: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, async (_, c) => {
        for (let i = 0; performance.now() < deadline; i++) times.push(await openOnce(targets[(c + i) % targets.length]!));
      }),
    );
    return { perSecond: times.length / seconds, times };
  };
  const series: [string, string[]][] = [
    ...(before.length > 0 ? [['baseline proxy', before] as [string, string[]]] : []),
    ['one proxy', single],
    ['three proxies', three],
  ];
  const loops = new Map(series.map(([name]) => [name, { perSecond: [] as number[], times: [] as number[] }]));
  for (let round = 0; round < Math.max(2, Math.ceil(rounds / 2)); round++) {
    for (const [name, targets] of series) {
      const r = await loop(targets);
      loops.get(name)!.perSecond.push(r.perSecond);
      loops.get(name)!.times.push(...r.times);
    }
  }
  console.error('[bench] closed loops measured');

  // The lease statements alone, from this process (the proxy runs the same two per session).
  const { takeLease, releaseLease } = await import('../proxy/cluster/leases');
  const provider = await db.provider.findFirstOrThrow({ where: { routerId: user.routerId! } });
  const lease: number[] = [];
  for (let i = 0; i < rounds * 200; i++) {
    const t0 = performance.now();
    const id = await takeLease({ id: provider.id, limit: 1_000 }, 'bench', 20_000);
    const t1 = performance.now();
    await releaseLease(id!, true);
    lease.push(t1 - t0);
  }

  // Round trips on an open session: direct, through a proxy of the three, and through the baseline's.
  const rttTargets: [string, string][] = [
    ['direct', browser.wsUrl],
    ['proxied', three[0]!],
    ...(before.length > 0 ? [['baseline', before[0]!] as [string, string]] : []),
  ];
  const rtt = new Map<string, number[]>(rttTargets.map(([name]) => [name, []]));
  const conns = new Map<string, CdpConnection>();
  for (const [name, target] of rttTargets) {
    const conn = await CdpConnection.open(target);
    await conn.attachPage();
    conns.set(name, conn);
  }
  for (let round = 0; round < rounds; round++) {
    for (const [name, conn] of conns) {
      for (let i = 0; i < 300; i++) {
        const t0 = performance.now();
        await conn.evaluate('1+1');
        rtt.get(name)!.push(performance.now() - t0);
      }
    }
  }
  for (const conn of conns.values()) conn.close();

  const stats = (xs: number[]) => {
    const s = [...xs].sort((x, y) => x - y);
    return { p50: percentile(s, 50), p99: percentile(s, 99) };
  };
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  console.log(`scale benchmark: ${rounds} rounds, ${os.cpus().length} cores, one embedded PostgreSQL, provider limit 6`);
  const direct = stats(opens.get('direct')!);
  console.log('\nWebSocket open → first reply       p50 ms   p99 ms   overhead p50 vs direct');
  for (const [name, samples] of opens) {
    const s = stats(samples);
    console.log(
      `  ${name.padEnd(30)} ${fmt(s.p50, 2).padStart(7)}  ${fmt(s.p99, 2).padStart(7)}   ${name === 'direct' ? '' : `${fmt(s.p50 - direct.p50, 2)} ms`}`,
    );
  }
  const one = stats(opens.get('one proxy')!);
  const many = stats(opens.get('three proxies')!);
  console.log(`  three proxies / one proxy (p50): ${fmt(many.p50 / one.p50, 2)}`);
  if (opens.has('baseline proxy')) console.log(`  one proxy / baseline proxy (p50): ${fmt(one.p50 / stats(opens.get('baseline proxy')!).p50, 2)}`);
  console.log('\nClosed loop, 12 clients, limit 6    connects/s (median)   connect p50 ms   p99 ms');
  for (const [name, r] of loops) {
    const s = stats(r.times);
    console.log(`  ${name.padEnd(30)} ${fmt(median(r.perSecond), 1).padStart(19)}   ${fmt(s.p50, 1).padStart(14)}  ${fmt(s.p99, 1).padStart(7)}`);
  }
  const l = stats(lease);
  console.log(`\nLease statement (take) alone: p50 ${fmt(l.p50, 2)} ms, p99 ${fmt(l.p99, 2)} ms`);
  const rd = stats(rtt.get('direct')!);
  const rp = stats(rtt.get('proxied')!);
  const baselineRtt = rtt.has('baseline') ? stats(rtt.get('baseline')!) : null;
  console.log(
    `\nCDP round trip (Runtime.evaluate "1+1"): direct p50 ${fmt(rd.p50, 3)} ms, through a proxy of three p50 ${fmt(rp.p50, 3)} ms (${fmt(rp.p50 / rd.p50, 2)} × direct)${baselineRtt ? `, through the baseline proxy p50 ${fmt(baselineRtt.p50, 3)} ms (proxied / baseline ${fmt(rp.p50 / baselineRtt.p50, 2)})` : ''}`,
  );
} finally {
  for (const child of children) child.kill('SIGKILL');
  await browser.stop();
  const { db } = await import('../lib/db');
  await db.$disconnect();
  await pg.stop();
  rmSync(scratch, { recursive: true, force: true });
}

async function startProxyProcess(name: string, cwd = process.cwd()) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'proxy/index.ts'], {
    cwd,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PROXY_INSTANCE_ID: `bench-${name}`, SERVICE_NAME: name, ENCODE_CONCURRENCY: '0' },
    stdio: ['ignore', process.stderr, 'inherit'],
  });
  children.push(child);
  await waitForListening(child, port);
  return port;
}
