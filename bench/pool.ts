// bench/pool — what the local browser pool costs a client, against launching Chromium directly:
//  1. connect → first CDP reply (`Browser.getVersion`): a WebSocket to the pool (which launches a
//     fresh browser per connection) vs spawn + DevTools address + WebSocket to the browser;
//  2. steady-state round trips (`Runtime.evaluate 1+1` on a page target) through the relay vs direct,
//     beside a plain TCP pipe in its own process: the floor of any relay that is a separate process.
// Rounds alternate so that machine noise hits both alike.
//   npx tsx bench/pool.ts [--rounds 8] [--roundtrips 2000]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { launchChromium } from '../proxy/pool/browser';
import { freePort, waitForListening } from '../scripts/lib/ports';
import { stopChild, tsxBin } from '../scripts/lib/processes';
import { fmt, percentile } from './lib';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '8' }, roundtrips: { type: 'string', default: '2000' } } });
const rounds = Number(values.rounds);
const roundtrips = Number(values.roundtrips);

const scratch = mkdtempSync(path.join(os.tmpdir(), 'br-bench-pool-'));
const port = await freePort();
const token = randomBytes(24).toString('base64url'); // the pool always requires one
const poolUrl = `ws://127.0.0.1:${port}/?token=${token}`;
const pool = spawn(process.execPath, [tsxBin, 'proxy/pool/index.ts'], {
  env: {
    ...process.env,
    DATA_DIR: path.join(scratch, 'data'),
    POOL_PORT: String(port),
    POOL_CAPACITY: '2',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    POOL_TOKEN: token,
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});

// A plain TCP pipe (node -e): listen port, target port.
const TCP_PIPE = `const net = require('node:net'); const [listen, target] = process.argv.slice(1).map(Number);
net.createServer((c) => { const u = net.connect(target, '127.0.0.1'); c.setNoDelay(true); u.setNoDelay(true); c.pipe(u); u.pipe(c);
  for (const [a, b] of [[c, u], [u, c]]) { a.on('error', () => b.destroy()); a.on('close', () => b.destroy()); } }).listen(listen, '127.0.0.1');`;

interface Status {
  calibrating: boolean;
  active: number;
  closing: number;
  launchMs: number | null;
}
const status = async () => (await (await fetch(`http://127.0.0.1:${port}/pool/status`, { headers: { authorization: `Bearer ${token}` } })).json()) as Status;
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

let nextId = 0;
function command(ws: WebSocket, method: string, params: object = {}, sessionId?: string): Promise<Record<string, unknown>> {
  const id = ++nextId;
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as { id?: number; result: Record<string, unknown> };
      if (message.id !== id) return;
      ws.off('message', onMessage);
      resolve(message.result);
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
  });
}

async function viaPool(): Promise<number> {
  const t0 = performance.now();
  const ws = await open(poolUrl);
  await command(ws, 'Browser.getVersion');
  const ms = performance.now() - t0;
  ws.close();
  await until(async () => {
    const s = await status();
    return s.active === 0 && s.closing === 0;
  });
  return ms;
}

async function direct(): Promise<number> {
  const userDataDir = mkdtempSync(path.join(scratch, 'direct-'));
  const t0 = performance.now();
  const browser = await launchChromium({ executable: process.env.CHROMIUM_PATH || '/usr/bin/chromium', userDataDir, timeoutMs: 30_000 });
  const ws = await open(browser.wsUrl);
  await command(ws, 'Browser.getVersion');
  const ms = performance.now() - t0;
  ws.close();
  await browser.stop(5_000);
  rmSync(userDataDir, { recursive: true, force: true });
  return ms;
}

/** Round trips of Runtime.evaluate on a fresh page target (flattened session). */
async function roundTrips(ws: WebSocket, count: number): Promise<number[]> {
  const { targetId } = await command(ws, 'Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await command(ws, 'Target.attachToTarget', { targetId, flatten: true });
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await command(ws, 'Runtime.evaluate', { expression: '1+1', returnByValue: true }, sessionId as string);
    times.push(performance.now() - t0);
  }
  return times;
}

const summary = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), min: sorted[0]!, max: sorted.at(-1)! };
};

try {
  await waitForListening(pool, port, { name: 'the pool' });
  await until(async () => !(await status()).calibrating);
  await viaPool(); // warm the file cache and the pool's code paths
  await direct();

  const connect = { pool: [] as number[], direct: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    connect.pool.push(await viaPool());
    connect.direct.push(await direct());
  }

  const poolWs = await open(poolUrl);
  const userDataDir = mkdtempSync(path.join(scratch, 'direct-rtt-'));
  const browser = await launchChromium({ executable: process.env.CHROMIUM_PATH || '/usr/bin/chromium', userDataDir, timeoutMs: 30_000 });
  const directWs = await open(browser.wsUrl);
  const pipePort = await freePort();
  const browserUrl = new URL(browser.wsUrl);
  const pipe = spawn(process.execPath, ['-e', TCP_PIPE, String(pipePort), browserUrl.port], { stdio: 'inherit' });
  await waitForListening(pipe, pipePort);
  const pipeWs = await open(`ws://127.0.0.1:${pipePort}${browserUrl.pathname}`);
  const lanes = [
    ['pool', poolWs],
    ['direct', directWs],
    ['tcp pipe', pipeWs],
  ] as const;
  for (const [, ws] of lanes) await roundTrips(ws, 200); // warm-up
  const rtt: Record<string, number[]> = { pool: [], direct: [], 'tcp pipe': [] };
  const block = Math.max(1, Math.floor(roundtrips / 10));
  for (let done = 0; done < roundtrips; done += block) {
    for (const [name, ws] of lanes) rtt[name]!.push(...(await roundTrips(ws, block)));
  }
  for (const [, ws] of lanes) ws.close();
  pipe.kill();
  await browser.stop(5_000);

  const launchMs = (await status()).launchMs;
  const c = { pool: summary(connect.pool), direct: summary(connect.direct) };
  const r = { pool: summary(rtt.pool!), direct: summary(rtt.direct!), pipe: summary(rtt['tcp pipe']!) };
  console.log(
    `pool vs direct Chromium, ${os.cpus().length} cores, ${rounds} connects each, ${rtt.pool!.length} round trips each (pool warm-up launch ${launchMs} ms)`,
  );
  console.log('                                    p50 ms    p99 ms    min ms    max ms');
  const row = (name: string, s: ReturnType<typeof summary>, digits: number) =>
    console.log(
      `${name.padEnd(34)} ${fmt(s.p50, digits).padStart(7)}   ${fmt(s.p99, digits).padStart(7)}   ${fmt(s.min, digits).padStart(7)}   ${fmt(s.max, digits).padStart(7)}`,
    );
  row('connect → first reply, pool', c.pool, 0);
  row('connect → first reply, direct', c.direct, 0);
  row('Runtime.evaluate round trip, pool', r.pool, 3);
  row('Runtime.evaluate round trip, direct', r.direct, 3);
  row('Runtime.evaluate, plain TCP pipe', r.pipe, 3);
  console.log(
    `ratio pool/direct: connect p50 ${fmt(c.pool.p50 / c.direct.p50, 2)}, round trip p50 ${fmt(r.pool.p50 / r.direct.p50, 2)} (relay adds ${fmt((r.pool.p50 - r.direct.p50) * 1000, 0)} µs at p50; a plain TCP pipe adds ${fmt((r.pipe.p50 - r.direct.p50) * 1000, 0)} µs)`,
  );
} finally {
  await stopChild(pool, 20_000);
  rmSync(scratch, { recursive: true, force: true });
}
