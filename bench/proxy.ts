// bench/proxy — the connect path's cost, in one run against the same local Chromium:
//   CDP round trip (Runtime.evaluate "1+1") p50/p99 and 1 MB reply throughput: direct, fast lane,
//   pipeline lane, beside the floor of a bare relay (a plain Node TCP pipe, socat when installed);
//   WebSocket open → first reply, direct vs proxied; RSS per idle fast-lane session
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
import { freePort, waitForListening } from '../scripts/lib/ports';
import { stopChild, tsxBin } from '../scripts/lib/processes';
import { CdpConnection, openRaw } from './cdp-connection';
import { fmt, percentile } from './lib';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, calls: { type: 'string', default: '400' }, sessions: { type: 'string', default: '1000' } },
});
const rounds = Number(values.rounds);
const calls = Number(values.calls);
const idleSessions = Number(values.sessions);

const scratch = mkdtempSync(path.join(os.tmpdir(), 'br-bench-proxy-'));
const pgPort = await freePort();
const pg = await startEmbeddedPostgres({ dataDir: scratch, port: pgPort, password: 'bench' });
await applyMigrations(pg.url);
process.env.DATABASE_URL = pg.url;
process.env.ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
// The bench's browsers are on loopback: a single-tenant policy (docs/security.md).
process.env.PRIVATE_NETWORK = 'allow';
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
  const floors = await startRelayFloors(browser.wsUrl);
  const targets = {
    direct: browser.wsUrl,
    ...floors,
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
  // Idle sessions: RSS of a fresh fast-lane proxy (no earlier garbage to hide growth in) with 50
  // sessions open, then with all of them.
  const idleProxy = await startProxyProcess('fast');
  const idleUrl = `ws://127.0.0.1:${idleProxy.port}/v1/connect?token=${keyB}`;
  const idle: WebSocket[] = [];
  const openIdle = async (until: number) => {
    while (idle.length < until) idle.push(...(await Promise.all(Array.from({ length: Math.min(50, until - idle.length) }, () => openRaw(idleUrl)))));
    await new Promise((r) => setTimeout(r, 2_000)); // let the proxy settle (session rows written, buffers returned)
  };
  await openIdle(50);
  const rssBefore = rssKiB(idleProxy.child.pid!);
  await openIdle(idleSessions);
  const rssAfter = rssKiB(idleProxy.child.pid!);
  const status = (await fetch(`http://127.0.0.1:${idleProxy.port}/v1/status?token=${keyB}`).then((r) => r.json())) as { providers: { active: number }[] };
  const activeIdle = status.providers.reduce((n, p) => n + p.active, 0);
  idle.forEach((ws) => ws.terminate());

  const stats = (xs: number[]) => {
    const s = [...xs].sort((x, y) => x - y);
    return { p50: percentile(s, 50), p99: percentile(s, 99) };
  };
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const direct = stats(rtt.get('direct')!);
  console.log(
    `proxy benchmark: ${rounds} rounds × ${calls} round trips per lane, ${os.cpus().length} cores, Chromium ${((await fetch(`${browser.httpUrl}/json/version`).then((r) => r.json())) as { Browser: string }).Browser}`,
  );
  const floor = stats(rtt.get('floor-node')!);
  console.log('\nCDP round trip (Runtime.evaluate "1+1")   p50 ms   p99 ms   p50 vs direct   target   vs bare Node relay');
  for (const [name, target] of [
    ['direct', ''],
    ['floor-node', 'floor'],
    ['floor-socat', 'floor'],
    ['fast', '≤ 1.05'],
    ['pipeline', '≤ 1.15'],
  ] as const) {
    if (!rtt.has(name)) continue;
    const s = stats(rtt.get(name)!);
    const overFloor = name === 'fast' || name === 'pipeline' ? fmt(s.p50 / floor.p50, 2) : '';
    console.log(
      `  ${name.padEnd(38)} ${fmt(s.p50, 3).padStart(7)}  ${fmt(s.p99, 3).padStart(7)}   ${fmt(s.p50 / direct.p50, 2).padStart(13)}   ${target.padEnd(6)}   ${overFloor}`,
    );
  }
  console.log('\n1 MB reply throughput                     MB/s (median)   vs direct   target');
  const directMbps = median(mbps.get('direct')!);
  for (const name of ['direct', 'floor-node', 'floor-socat', 'fast', 'pipeline']) {
    if (!mbps.has(name)) continue;
    const m = median(mbps.get(name)!);
    console.log(
      `  ${name.padEnd(38)} ${fmt(m, 1).padStart(13)}   ${fmt(m / directMbps, 2).padStart(9)}   ${name === 'fast' || name === 'pipeline' ? '≥ 0.90' : ''}`,
    );
  }
  const od = stats(openTimes.get('direct')!);
  const of = stats(openTimes.get('fast')!);
  console.log('\nWebSocket open → first reply              p50 ms   p99 ms');
  console.log(`  direct                                 ${fmt(od.p50, 2).padStart(7)}  ${fmt(od.p99, 2).padStart(7)}`);
  console.log(
    `  through the proxy (fast lane)          ${fmt(of.p50, 2).padStart(7)}  ${fmt(of.p99, 2).padStart(7)}   overhead p50 ${fmt(of.p50 - od.p50, 2)} ms (target ≤ 5 ms)`,
  );
  const perSession = (rssAfter - rssBefore) / (activeIdle - 50);
  console.log(
    `\nIdle fast-lane sessions: 50 → ${activeIdle} active (the proxy's /v1/status), proxy RSS ${fmt(rssBefore / 1024, 1)} → ${fmt(rssAfter / 1024, 1)} MiB: ${perSession > 0 ? `${fmt(perSession, 1)} KiB per added session` : 'no measurable growth'} (target ≤ 64 KiB)`,
  );
} finally {
  // SIGTERM: tsx hands it on to the proxy it runs (a SIGKILL of tsx left the proxy running).
  await Promise.all(children.map((child) => stopChild(child, 5_000)));
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
  await waitForListening(child, port);
  return { port, child };
}

/**
 * The floor of any relay on this machine: a bare TCP pipe in its own Node process (no WebSocket,
 * no auth, no counting), and socat (C) when installed. The lanes are judged beside them.
 */
async function startRelayFloors(wsUrl: string): Promise<Record<string, string>> {
  const target = new URL(wsUrl);
  const floors: Record<string, string> = {};
  const nodePort = await freePort();
  const script = `const net=require('node:net');net.createServer({noDelay:true},(c)=>{const u=net.connect(${target.port},'127.0.0.1');u.setNoDelay(true);c.pipe(u);u.pipe(c);c.on('error',()=>u.destroy());u.on('error',()=>c.destroy())}).listen(${nodePort},'127.0.0.1')`;
  const nodePipe = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  children.push(nodePipe);
  await waitForListening(nodePipe, nodePort);
  floors['floor-node'] = wsUrl.replace(`:${target.port}/`, `:${nodePort}/`);
  const socatPort = await freePort();
  const socat = spawn('socat', [`TCP-LISTEN:${socatPort},bind=127.0.0.1,fork,reuseaddr,nodelay`, `TCP:127.0.0.1:${target.port},nodelay`], { stdio: 'ignore' });
  const started = await new Promise<boolean>((resolve) => {
    socat.once('error', () => resolve(false));
    waitForListening(socat, socatPort).then(
      () => resolve(true),
      () => resolve(false),
    );
  });
  if (started) {
    children.push(socat);
    floors['floor-socat'] = wsUrl.replace(`:${target.port}/`, `:${socatPort}/`);
  }
  return floors;
}

function rssKiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

/** A CDP-speaking upstream that costs almost nothing: it answers every command with {}. */
async function startTinyCdpUpstream() {
  const port = await freePort();
  const wss = new WebSocketServer({ port, host: '127.0.0.1', perMessageDeflate: false });
  wss.on('connection', (ws) => ws.on('message', (data) => ws.send(JSON.stringify({ id: JSON.parse(data.toString()).id, result: {} }))));
  return {
    url: `ws://127.0.0.1:${port}/devtools/browser/tiny`,
    close: () =>
      new Promise<void>((r) => {
        wss.clients.forEach((c) => c.terminate());
        wss.close(() => r());
      }),
  };
}
