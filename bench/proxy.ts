// bench/proxy — the connect path's cost, in one run against the same local Chromium:
//   CDP round trip (Runtime.evaluate "1+1") p50/p99 and 1 MB reply throughput: direct, fast lane,
//   pipeline lane; WebSocket open → first reply, direct vs proxied; RSS per idle fast-lane session
//   with 1,000 concurrent sessions against a lightweight CDP-speaking upstream.
// Proxies run as their own processes, as deployed. Rounds are interleaved against machine noise.
//   npx tsx bench/proxy.ts [--rounds 5] [--calls 400] [--sessions 1000]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { WebSocketServer } from 'ws';
import type WebSocket from 'ws';
import { launchChromium } from '../e2e/support/chromium';
import { startEmbeddedPostgres } from '../lib/db/embedded';
import { applyMigrations } from '../lib/db/migrate';
import { freePort, waitForPort } from '../scripts/lib/ports';
import { tsxBin } from '../scripts/lib/processes';
import { CdpConnection, openRaw } from './cdp-connection';
import { fmt, percentile } from './lib';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, calls: { type: 'string', default: '400' }, sessions: { type: 'string', default: '1000' } } });
const rounds = Number(values.rounds);
const calls = Number(values.calls);
const idleSessions = Number(values.sessions);

const scratch = mkdtempSync(path.join(os.tmpdir(), 'br-bench-proxy-'));
const pgPort = await freePort();
const pg = await startEmbeddedPostgres({ dataDir: scratch, port: pgPort, password: 'bench' });
await applyMigrations(pg.url);
process.env.DATABASE_URL = pg.url;
process.env.ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
process.env.LOG_LEVEL ??= 'silent'; // LOG_LEVEL=debug prints each proxied connect's phase timings
const children: ChildProcess[] = [];
const browser = await launchChromium();
const upstream = await startTinyCdpUpstream();

try {
  const { seedUser } = await import('../lib/users/seed-user');
  const { addProvider, routerKey } = await routing();
  const a = await seedUser({ email: 'bench-a@example.test', password: 'benchmark password' });
  await addProvider(a.workspaceId, a.routerId!, { slug: 'chromium', url: browser.wsUrl });
  const keyA = await routerKey(a.workspaceId, a.routerId!);
  const b = await seedUser({ email: 'bench-b@example.test', password: 'benchmark password' });
  await addProvider(b.workspaceId, b.routerId!, { slug: 'tiny', url: upstream.url });
  const keyB = await routerKey(b.workspaceId, b.routerId!);
  const { db } = await import('../lib/db');
  await db.router.update({ where: { id: b.routerId! }, data: { sessionIdleTimeoutMs: 840_000 } });

  console.error('[bench] stack ready; starting proxies');
  const fast = await startProxyProcess('fast');
  const pipeline = await startProxyProcess('pipeline');
  const targets = {
    direct: browser.wsUrl,
    fast: `ws://127.0.0.1:${fast.port}/v1/connect?token=${keyA}`,
    pipeline: `ws://127.0.0.1:${pipeline.port}/v1/connect?token=${keyA}`,
  };

  // Round trips and throughput: one connection per lane, a page session attached, rounds interleaved.
  const lanes = await Promise.all(Object.entries(targets).map(async ([name, url]) => ({ name, conn: await CdpConnection.open(url) })));
  for (const lane of lanes) await lane.conn.attachPage();
  const rtt = new Map<string, number[]>();
  const mbps = new Map<string, number[]>();
  for (const lane of lanes) for (let i = 0; i < 50; i++) await lane.conn.evaluate('1+1'); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const lane of lanes) {
      const samples = rtt.get(lane.name) ?? [];
      for (let i = 0; i < calls; i++) {
        const t0 = performance.now();
        await lane.conn.evaluate('1+1');
        samples.push(performance.now() - t0);
      }
      rtt.set(lane.name, samples);
      const t0 = performance.now();
      const n = 10;
      for (let i = 0; i < n; i++) await lane.conn.evaluate("'x'.repeat(1048576)");
      mbps.set(lane.name, [...(mbps.get(lane.name) ?? []), n / ((performance.now() - t0) / 1000)]);
    }
  }
  for (const lane of lanes) lane.conn.close();

  console.error('[bench] round trips and throughput measured');
  // Open → first reply: a new connection each time, Browser.getVersion on open.
  const openTimes = new Map<string, number[]>();
  for (let round = 0; round < rounds * 10; round++) {
    for (const name of ['direct', 'fast'] as const) {
      const t0 = performance.now();
      const conn = await CdpConnection.open(targets[name]);
      await conn.call('Browser.getVersion');
      openTimes.set(name, [...(openTimes.get(name) ?? []), performance.now() - t0]);
      conn.close();
      await conn.closed;
    }
  }

  console.error('[bench] open → first reply measured; opening idle sessions');
  // Idle sessions: RSS of the fast-lane proxy before and after 1,000 open sessions.
  const rssBefore = rssKiB(fast.child.pid!);
  const idle: WebSocket[] = [];
  for (let i = 0; i < idleSessions; i += 50) {
    idle.push(...(await Promise.all(Array.from({ length: Math.min(50, idleSessions - i) }, () => openRaw(`ws://127.0.0.1:${fast.port}/v1/connect?token=${keyB}`)))));
  }
  await new Promise((r) => setTimeout(r, 2_000)); // let the proxy settle (GC, buffers) before reading RSS
  const rssAfter = rssKiB(fast.child.pid!);
  idle.forEach((ws) => ws.terminate());

  const stats = (xs: number[]) => { const s = [...xs].sort((x, y) => x - y); return { p50: percentile(s, 50), p99: percentile(s, 99) }; };
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const direct = stats(rtt.get('direct')!);
  console.log(`proxy benchmark: ${rounds} rounds × ${calls} round trips per lane, ${os.cpus().length} cores, Chromium ${(await fetch(`${browser.httpUrl}/json/version`).then((r) => r.json()) as { Browser: string }).Browser}`);
  console.log('\nCDP round trip (Runtime.evaluate "1+1")   p50 ms   p99 ms   p50 vs direct   target');
  for (const [name, target] of [['direct', ''], ['fast', '≤ 1.05'], ['pipeline', '≤ 1.15']] as const) {
    const s = stats(rtt.get(name)!);
    console.log(`  ${name.padEnd(38)} ${fmt(s.p50, 3).padStart(7)}  ${fmt(s.p99, 3).padStart(7)}   ${fmt(s.p50 / direct.p50, 2).padStart(13)}   ${target}`);
  }
  console.log('\n1 MB reply throughput                     MB/s (median)   vs direct   target');
  const directMbps = median(mbps.get('direct')!);
  for (const name of ['direct', 'fast', 'pipeline']) {
    const m = median(mbps.get(name)!);
    console.log(`  ${name.padEnd(38)} ${fmt(m, 1).padStart(13)}   ${fmt(m / directMbps, 2).padStart(9)}   ${name === 'direct' ? '' : '≥ 0.90'}`);
  }
  const od = stats(openTimes.get('direct')!);
  const of = stats(openTimes.get('fast')!);
  console.log('\nWebSocket open → first reply              p50 ms   p99 ms');
  console.log(`  direct                                 ${fmt(od.p50, 2).padStart(7)}  ${fmt(od.p99, 2).padStart(7)}`);
  console.log(`  through the proxy (fast lane)          ${fmt(of.p50, 2).padStart(7)}  ${fmt(of.p99, 2).padStart(7)}   overhead p50 ${fmt(of.p50 - od.p50, 2)} ms (target ≤ 5 ms)`);
  console.log(`\nIdle fast-lane sessions: ${idle.length}, proxy RSS ${Math.round(rssBefore / 1024)} → ${Math.round(rssAfter / 1024)} MiB, ${fmt((rssAfter - rssBefore) / idle.length, 1)} KiB per session (target ≤ 64 KiB)`);
} finally {
  for (const child of children) child.kill('SIGKILL');
  await upstream.close();
  await browser.stop();
  const { db } = await import('../lib/db');
  await db.$disconnect();
  await pg.stop();
  rmSync(scratch, { recursive: true, force: true });
}

async function routing() {
  const { addProvider } = await import('../e2e/support/providers');
  const { routerKey } = await import('../e2e/support/connect');
  return { addProvider, routerKey };
}

async function startProxyProcess(lane: 'fast' | 'pipeline') {
  const port = await freePort();
  const child = spawn(process.execPath, [tsxBin, 'proxy/index.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PROXY_LANE: lane, PROXY_INSTANCE_ID: `bench-${lane}`, SERVICE_NAME: 'proxy' },
    stdio: ['ignore', process.stderr, 'inherit'],
  });
  children.push(child);
  await waitForPort(port, 30_000);
  return { port, child };
}

function rssKiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

/** A CDP-speaking upstream that costs almost nothing: it answers every command with {}. */
async function startTinyCdpUpstream() {
  const port = await freePort();
  const wss = new WebSocketServer({ port, host: '127.0.0.1', perMessageDeflate: false });
  wss.on('connection', (ws) => ws.on('message', (data) => ws.send(JSON.stringify({ id: JSON.parse(data.toString()).id, result: {} }))));
  return { url: `ws://127.0.0.1:${port}/devtools/browser/tiny`, close: () => new Promise<void>((r) => { wss.clients.forEach((c) => c.terminate()); wss.close(() => r()); }) };
}
