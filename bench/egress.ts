// bench/egress — what the pool's egress proxy (proxy/pool/egress-proxy.ts) costs a page: a local
// page with 30 sub-resources loaded in one Chromium, alternately in a context that goes straight
// to the site and in one whose proxy is the egress proxy (every request resolved, checked under
// the policy and relayed). Same browser, same site, same run; rounds alternate so machine noise
// hits both alike. Also a single small request, to show the per-connection cost.
//   npx tsx bench/egress.ts [--rounds 40]
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { startEgressProxy } from '../proxy/pool/egress-proxy';
import { fmt, percentile } from './lib';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } });
const rounds = Number(values.rounds);
const SUBRESOURCES = 30;

const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64');
const site = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://site');
  if (url.pathname === '/page') {
    const images = Array.from({ length: SUBRESOURCES }, (_, i) => `<img src="/img/${i}?r=${url.searchParams.get('r')}" width="8" height="8">`).join('');
    return void res
      .writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' })
      .end(`<!DOCTYPE html><title>bench</title><body>${images}</body>`);
  }
  if (url.pathname.startsWith('/img/')) return void res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(pixel);
  res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end('ok');
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

// The policy of a single-tenant install (the site is on loopback); the checks run all the same.
const egress = await startEgressProxy({ policy: { privateNetwork: 'allow', internalPorts: new Set([1]) }, log: pino({ level: 'silent' }) });
let browser: Browser | undefined;
try {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const direct = await browser.newContext();
  const proxied = await browser.newContext({ proxy: { server: egress.url, bypass: '<-loopback>' } });

  const pageLoad = async (context: BrowserContext, round: number) => {
    const page = await context.newPage();
    const t0 = performance.now();
    await page.goto(`${base}/page?r=${round}`, { waitUntil: 'load' });
    const ms = performance.now() - t0;
    await page.close();
    return ms;
  };
  const oneRequest = async (context: BrowserContext) => {
    const page = await context.newPage();
    await page.goto(`${base}/small`);
    const t0 = performance.now();
    await page.evaluate(async (u) => {
      await (await fetch(u, { cache: 'no-store' })).text();
    }, `${base}/small`);
    const ms = performance.now() - t0;
    await page.close();
    return ms;
  };

  // Warm both paths (first connections, caches of the browser itself).
  await pageLoad(direct, -1);
  await pageLoad(proxied, -1);
  const times = { direct: [] as number[], proxied: [] as number[], directFetch: [] as number[], proxiedFetch: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    const proxiedFirst = round % 2 === 1;
    for (const which of proxiedFirst ? (['proxied', 'direct'] as const) : (['direct', 'proxied'] as const)) {
      const context = which === 'direct' ? direct : proxied;
      times[which].push(await pageLoad(context, round));
      times[which === 'direct' ? 'directFetch' : 'proxiedFetch'].push(await oneRequest(context));
    }
  }
  for (const list of Object.values(times)) list.sort((a, b) => a - b);
  const row = (name: string, list: number[]) =>
    console.log(`${name.padEnd(44)}${fmt(percentile(list, 50)).padStart(9)}${fmt(percentile(list, 90)).padStart(9)}${fmt(list[0]!).padStart(9)}`);
  console.log(`egress proxy vs direct, one Chromium, ${rounds} rounds, a page with ${SUBRESOURCES} images`);
  console.log(`${''.padEnd(44)}${'p50 ms'.padStart(9)}${'p90 ms'.padStart(9)}${'min ms'.padStart(9)}`);
  row('page load, direct', times.direct);
  row('page load, through the egress proxy', times.proxied);
  row('one fetch(), direct', times.directFetch);
  row('one fetch(), through the egress proxy', times.proxiedFetch);
  console.log(
    `ratio egress/direct: page load p50 ${(percentile(times.proxied, 50) / percentile(times.direct, 50)).toFixed(2)}, one fetch p50 ${(percentile(times.proxiedFetch, 50) / percentile(times.directFetch, 50)).toFixed(2)}`,
  );
} finally {
  await browser?.close();
  await egress.close();
  site.close();
}
