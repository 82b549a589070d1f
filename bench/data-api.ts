// bench/data-api — POST /v1/screenshot of a small local page through the proxy, beside a direct
// playwright-core script doing the same against the same Chromium in the same run: one CDP
// connection, and per call a fresh context, a page, goto, a PNG screenshot and closing the context
// (the isolation the data API gives). Concurrency 1 and 4; rounds are interleaved so machine noise
// hits both alike, then a paired run at concurrency 1 alternates the two call by call. Target:
// data-API p50 ≤ 1.15 × direct p50 at concurrency 1.
//   npx tsx bench/data-api.ts [--seconds 5] [--rounds 3]
import http from 'node:http';
import type net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { launchChromium } from '../e2e/support/chromium';
import { freePort } from '../scripts/lib/ports';
import { startStack } from '../scripts/lib/stack';
import { closedLoop, closedLoopCalls, fmt, percentile, type LoadResult } from './lib';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' } } });
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const VIEWPORT = { width: 1280, height: 720 };

const page =
  '<!DOCTYPE html><html><head><title>bench</title></head><body><h1>A small page</h1><p>Some text to render.</p><div style="width:200px;height:100px;background:#c33"></div></body></html>';
const site = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(page));
await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
const pageUrl = `http://127.0.0.1:${(site.address() as net.AddressInfo).port}/`;

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
  extraEnv: { LOG_LEVEL: 'warn', LOCAL_POOL_AUTO_PROVIDER: '0', PRIVATE_NETWORK: 'allow' /* the bench's page and browser are on loopback */ },
});
const browser = await launchChromium();
try {
  process.env.DATABASE_URL = stack.env.DATABASE_URL;
  process.env.ENCRYPTION_KEY = stack.env.ENCRYPTION_KEY;
  const { seedUser } = await import('../lib/users/seed-user');
  const { addProvider } = await import('../e2e/support/providers');
  const { routerKey } = await import('../e2e/support/connect');
  const seeded = await seedUser({ email: 'bench-data@example.test', password: 'benchmark password' });
  await addProvider(seeded.workspaceId, seeded.routerId!, { slug: 'local', url: browser.wsUrl });
  const key = await routerKey(seeded.workspaceId, seeded.routerId!);

  const viaApi = (concurrency: number) =>
    closedLoop(
      `data API  c=${concurrency}`,
      `${stack.proxyUrl}/v1/screenshot`,
      { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: pageUrl }) },
      concurrency,
      seconds,
    );
  const direct = await chromium.connectOverCDP(browser.wsUrl);
  const directCall = async () => {
    const context = await direct.newContext({ viewport: VIEWPORT });
    try {
      const tab = await context.newPage();
      await tab.goto(pageUrl, { waitUntil: 'domcontentloaded' });
      await tab.screenshot({ type: 'png' });
    } finally {
      await context.close();
    }
  };
  const apiCall = async () => {
    const res = await fetch(`${stack.proxyUrl}/v1/screenshot`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: pageUrl }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`status ${res.status}`);
  };
  const viaDirect = (concurrency: number) => closedLoopCalls(`direct    c=${concurrency}`, directCall, concurrency, seconds);

  for (const run of [viaApi, viaDirect]) await run(1).then(() => run(4)); // warm-up (shorter runs would be noisier)
  const totals = new Map<string, LoadResult[]>();
  for (let round = 0; round < rounds; round++) {
    for (const concurrency of [1, 4]) {
      for (const run of round % 2 === 0 ? [viaApi, viaDirect] : [viaDirect, viaApi]) {
        const result = await run(concurrency);
        totals.set(result.name, [...(totals.get(result.name) ?? []), result]);
      }
    }
  }
  // Paired samples at concurrency 1: the two alternate call by call (order flipped each time), so
  // both meet the same machine load. On a shared machine this is the fair p50 comparison.
  const paired = { api: [] as number[], direct: [] as number[] };
  const pairedEnd = performance.now() + rounds * seconds * 1000;
  for (let i = 0; performance.now() < pairedEnd; i++) {
    for (const [which, call] of (i % 2 === 0
      ? [
          ['api', apiCall],
          ['direct', directCall],
        ]
      : [
          ['direct', directCall],
          ['api', apiCall],
        ]) as ['api' | 'direct', () => Promise<void>][]) {
      const t0 = performance.now();
      await call();
      paired[which].push(performance.now() - t0);
    }
  }
  await direct.close();

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const summary = new Map(
    [...totals].map(([name, results]) => {
      const calls = results.reduce((s, r) => s + r.requests, 0);
      const time = results.reduce((s, r) => s + r.seconds, 0);
      return [
        name,
        {
          name,
          rps: calls / time,
          p50: median(results.map((r) => r.p50)),
          p99: median(results.map((r) => r.p99)),
          errors: results.reduce((s, r) => s + r.errors, 0),
          calls,
        },
      ];
    }),
  );
  console.log(`data API screenshot vs direct playwright-core, ${rounds} × ${seconds} s per target, ${os.cpus().length} cores`);
  console.log('target          calls/s   p50 ms   p99 ms   calls  errors   p50 vs direct');
  for (const concurrency of [1, 4]) {
    const d = summary.get(`direct    c=${concurrency}`)!;
    for (const row of [summary.get(`data API  c=${concurrency}`)!, d]) {
      console.log(
        `${row.name.padEnd(14)} ${fmt(row.rps).padStart(8)}  ${fmt(row.p50).padStart(7)}  ${fmt(row.p99).padStart(7)}  ${String(row.calls).padStart(6)}  ${String(row.errors).padStart(6)}   ${fmt(row.p50 / d.p50, 2).padStart(13)}`,
      );
    }
  }
  const blockRatio = summary.get('data API  c=1')!.p50 / summary.get('direct    c=1')!.p50;
  const p50 = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  const pairedRatio = p50(paired.api) / p50(paired.direct);
  console.log(
    `paired c=1 (${paired.api.length} + ${paired.direct.length} calls, alternating): data API p50 ${fmt(p50(paired.api))} ms, direct p50 ${fmt(p50(paired.direct))} ms`,
  );
  console.log(
    `target p50 ≤ 1.15 × direct at concurrency 1: paired ${fmt(pairedRatio, 2)} × — ${pairedRatio <= 1.15 ? 'met' : 'NOT met'} (block runs: ${fmt(blockRatio, 2)} ×)`,
  );
} finally {
  await browser.stop();
  await stack.stop();
  site.close();
  rmSync(dataDir, { recursive: true, force: true });
}
