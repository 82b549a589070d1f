// bench/profiles — what a profile costs a session on the local pool, in one run against one stack
// (embedded PostgreSQL, web, proxy, pool). Target (docs/profiles.md): a 1 MB profile with 50
// origins ready in ≤ 1.5 s p50 on the local pool.
//  1. load: connect start → ready for a session without a profile (baseline) and one with
//     `profile=<slug>&readOnly=1` on a profile imported once through POST /v1/profiles/import-playwright
//     (50 origins × ~20 KB localStorage, 50 cookies: ~1 MB) and then saved once by a session on the
//     pool (so it carries the pool's storage files; the imported, JSON-only version is measured
//     too, three times, as the first-load figure). Measured with a raw WebSocket (the
//     `101`, then the first CDP reply, Browser.getVersion) and with playwright-core's
//     chromium.connectOverCDP (resolved = ready). Rounds alternate which goes first.
//  2. save: a saving session (no readOnly) through playwright-core: browser.close() → the new
//     version listed by GET /v1/profiles/:slug/versions (polled), for a session that visited
//     nothing new and for one that changed one origin's localStorage.
// Every session waits for the pool to be idle (no browser open or closing) before it starts.
//   npx tsx bench/profiles.ts [--rounds 10] [--warmup 2] [--saves 5] [--origins 50] [--kib 20]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import WebSocket from 'ws';
import { freePort } from '../scripts/lib/ports';
import { startStack } from '../scripts/lib/stack';
import { fmt, percentile } from './lib';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    saves: { type: 'string', default: '5' },
    origins: { type: 'string', default: '50' },
    kib: { type: 'string', default: '20' },
    sites: { type: 'string', default: 'cross' },
  },
});
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const saves = Number(values.saves);
const ORIGINS = Number(values.origins);
const KIB_PER_ORIGIN = Number(values.kib);
const TARGET_MS = 1_500;
const SLUG = 'bench-1mb';
// `cross`: every origin its own site (http://oN-bench.test), as a real profile's origins mostly are: with
// site isolation each helper-page navigation changes renderer process. `same`: http://oN.bench.test,
// subdomains of one site (bench.test), which a renderer process may keep across navigations.
if (values.sites !== 'cross' && values.sites !== 'same') throw new Error('--sites takes cross or same');
const crossSite = values.sites === 'cross';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'br-bench-profiles-'));
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
let disconnect = async () => {};
try {
  const poolStatus = async () =>
    (await (await fetch(`${stack.poolUrl}/pool/status`, { headers: { authorization: `Bearer ${stack.env.POOL_TOKEN}` } })).json()) as {
      calibrating: boolean;
      active: number;
      closing: number;
      capacity: number;
      launchMs: number | null;
    };
  const until = async (check: () => Promise<boolean>, what: string, timeoutMs = 60_000, everyMs = 20) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  };
  const poolIdle = () =>
    until(async () => {
      const s = await poolStatus();
      return s.active === 0 && s.closing === 0;
    }, 'the pool to be idle');
  await until(async () => !(await poolStatus()).calibrating, 'the pool to calibrate');

  // The bench's user: its router gets the local pool as first provider, as a sign-up on this install does.
  process.env.DATABASE_URL = stack.env.DATABASE_URL;
  process.env.ENCRYPTION_KEY = stack.env.ENCRYPTION_KEY;
  process.env.LOCAL_POOL_URL = stack.env.LOCAL_POOL_URL;
  process.env.POOL_TOKEN = stack.env.POOL_TOKEN;
  process.env.LOG_LEVEL = 'warn';
  const { seedUser } = await import('../lib/users/seed-user');
  const { routerKey } = await import('../e2e/support/connect');
  const { db } = await import('../lib/db');
  disconnect = () => db.$disconnect();
  const seeded = await seedUser({ email: 'bench-profiles@example.test', password: 'benchmark password' });
  const key = await routerKey(seeded.workspaceId, seeded.routerId!);
  const providers = await db.provider.findMany({ where: { routerId: seeded.routerId! }, select: { slug: true } });
  if (providers.length !== 1)
    throw new Error(`expected the local pool as the router's only provider, found: ${providers.map((p) => p.slug).join(', ') || 'none'}`);
  // The versions are polled every 25 ms: keep the daily bearer cap out of the way.
  await db.workspace.update({ where: { id: seeded.workspaceId }, data: { dailyCapOverride: 1_000_000 } });
  const auth = { authorization: `Bearer ${seeded.accessToken}` };
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${stack.webUrl}${url}`, {
      method,
      headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
    return (JSON.parse(text) as { data: any }).data;
  };

  // The profile: origins http://oN.bench.test (helper pages never reach the network), each with
  // localStorage of KIB_PER_ORIGIN in 5 items of random text, and one cookie per origin.
  const expires = Math.floor(Date.now() / 1000) + 30 * 86_400;
  const hostOf = (i: number) => (crossSite ? `o${i}-bench.test` : `o${i}.bench.test`);
  const originOf = (i: number) => `http://${hostOf(i)}`;
  const storageState = {
    cookies: Array.from({ length: ORIGINS }, (_, i) => ({
      name: `sid${i}`,
      value: randomBytes(48).toString('base64url'),
      domain: hostOf(i),
      path: '/',
      expires,
      httpOnly: i % 2 === 0,
      secure: false,
      sameSite: 'Lax' as const,
    })),
    origins: Array.from({ length: ORIGINS }, (_, i) => ({
      origin: originOf(i),
      localStorage: Array.from({ length: 5 }, (_, k) => ({
        name: `item${k}`,
        value: randomBytes(Math.floor((KIB_PER_ORIGIN * 1024 * 3) / 4 / 5)).toString('base64'),
      })),
    })),
  };
  const importBody = { slug: SLUG, name: 'Bench 1 MB', storageState };
  const importBytes = Buffer.byteLength(JSON.stringify(importBody));
  const imported = await api('POST', '/v1/profiles/import-playwright', importBody);
  const profileBytes = imported.sizeBytes as number;

  const ws = `ws://127.0.0.1:${proxyPort}/v1/connect`;
  const connectUrl = (query: Record<string, string>) => `${ws}?${new URLSearchParams({ token: key, ...query })}`;
  const plain = connectUrl({});
  const loaded = connectUrl({ profile: SLUG, readOnly: '1' });
  const saving = connectUrl({ profile: SLUG });

  /** Raw WebSocket: ms to the `101` and to the first CDP reply. */
  const rawSample = async (url: string) => {
    await poolIdle();
    const t0 = performance.now();
    const socket = new WebSocket(url, { perMessageDeflate: false });
    let upgraded = 0;
    socket.once('upgrade', () => (upgraded = performance.now() - t0));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
    });
    const reply = new Promise<void>((resolve) => socket.once('message', () => resolve()));
    socket.send(JSON.stringify({ id: 1, method: 'Browser.getVersion', params: {} }));
    await reply;
    const ready = performance.now() - t0;
    const closed = new Promise((r) => socket.once('close', r));
    socket.close();
    await closed;
    return { upgraded, ready };
  };
  /** playwright-core: ms until connectOverCDP resolves. */
  const playwrightSample = async (url: string) => {
    await poolIdle();
    const t0 = performance.now();
    const browser = await chromium.connectOverCDP(url, { timeout: 60_000 });
    const ready = performance.now() - t0;
    await browser.close();
    return ready;
  };

  // The imported version is JSON only: each origin is written through a helper tab (the slow path).
  const fromJson: number[] = [];
  for (let i = 0; i < 3; i++) fromJson.push(await playwrightSample(loaded));
  // One saving session on the pool: its version carries the browser's storage files, which the
  // next sessions start with (no helper tab). The rounds below load that version.
  const listVersions = async () => (await api('GET', `/v1/profiles/${SLUG}/versions`)).items as { version: number }[];
  const firstSaver = await chromium.connectOverCDP(saving, { timeout: 60_000 });
  await firstSaver.close();
  await until(async () => (await listVersions()).length >= 2 && !(await api('GET', `/v1/profiles/${SLUG}`)).saving, 'the first saved version', 120_000, 25);

  // Sanity: the profile is really in the browser (cookies, and one origin's localStorage).
  const check = await chromium.connectOverCDP(loaded, { timeout: 60_000 });
  const context = check.contexts()[0]!;
  const cookies = (await context.cookies()).filter((c) => c.domain.endsWith('bench.test')).length;
  const page = await context.newPage();
  await page.route('**/*', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>bench</title>' }));
  await page.goto(`${originOf(7)}/`);
  const items = await page.evaluate(() => localStorage.length);
  await check.close();

  const samples = {
    rawPlain: [] as number[],
    rawPlain101: [] as number[],
    rawLoaded: [] as number[],
    rawLoaded101: [] as number[],
    pwPlain: [] as number[],
    pwLoaded: [] as number[],
  };
  for (let round = -warmup; round < rounds; round++) {
    const order = round % 2 === 0 ? (['plain', 'loaded'] as const) : (['loaded', 'plain'] as const);
    for (const which of order) {
      const raw = await rawSample(which === 'plain' ? plain : loaded);
      const pw = await playwrightSample(which === 'plain' ? plain : loaded);
      if (round < 0) continue;
      if (which === 'plain') {
        samples.rawPlain.push(raw.ready);
        samples.rawPlain101.push(raw.upgraded);
        samples.pwPlain.push(pw);
      } else {
        samples.rawLoaded.push(raw.ready);
        samples.rawLoaded101.push(raw.upgraded);
        samples.pwLoaded.push(pw);
      }
    }
  }
  console.error('[bench] load measured; saving sessions');

  // Saving: close → the new version listed. The profile is free again (lock released) before the next.
  const versions = async () => (await api('GET', `/v1/profiles/${SLUG}/versions`)).items as { version: number; sizeBytes: number; capturedOrigins: string[] }[];
  const latest = async () => (await versions())[0]?.version ?? 0;
  const lockFree = () => until(async () => !(await api('GET', `/v1/profiles/${SLUG}`)).saving, 'the profile lock to be released');
  const saveSample = async (change: boolean) => {
    await poolIdle();
    await lockFree();
    const before = await latest();
    const browser: Browser = await chromium.connectOverCDP(saving, { timeout: 60_000 });
    if (change) {
      const tab = await browser.contexts()[0]!.newPage();
      await tab.route('**/*', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>bench</title>' }));
      await tab.goto(`${originOf(3)}/`);
      await tab.evaluate((v) => localStorage.setItem('item0', v), `changed ${Date.now()}`);
    }
    const t0 = performance.now();
    await browser.close();
    const closed = performance.now() - t0;
    // Saved: a newer version is listed. Not saved: the session released the lock (its end is over) without one.
    let saved: number | null = null;
    await until(
      async () => {
        if ((await latest()) > before) {
          saved = performance.now() - t0;
          return true;
        }
        return !(await api('GET', `/v1/profiles/${SLUG}`)).saving && (await latest()) === before;
      },
      'the session to end',
      120_000,
      25,
    );
    if (saved === null && (await latest()) > before) saved = performance.now() - t0;
    return { closed, saved };
  };
  const save = { same: [] as number[], changed: [] as number[], closeSame: [] as number[], closeChanged: [] as number[], lost: { same: 0, changed: 0 } };
  await saveSample(false); // warm-up
  for (let i = 0; i < saves; i++) {
    for (const change of i % 2 === 0 ? [false, true] : [true, false]) {
      const { closed, saved } = await saveSample(change);
      if (saved === null) save.lost[change ? 'changed' : 'same']++;
      else save[change ? 'changed' : 'same'].push(saved);
      save[change ? 'closeChanged' : 'closeSame'].push(closed);
    }
  }
  const last = (await versions())[0]!;
  // The export is the state itself: meta.durationMs is how long the last save's capture (cookies, helper tabs) took.
  const exported = (await (await fetch(`${stack.webUrl}/v1/profiles/${SLUG}/export`, { headers: auth })).json()) as { meta?: { durationMs?: number } };

  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { p50: percentile(s, 50), p95: percentile(s, 95), min: s[0]!, max: s.at(-1)! };
  };
  const pool = await poolStatus();
  console.log(`profiles on the local pool, ${os.cpus().length} cores, pool capacity ${pool.capacity} (warm-up launch ${pool.launchMs} ms)`);
  console.log(
    `profile "${SLUG}": ${fmt(profileBytes / 1024 / 1024, 2)} MB (${ORIGINS} ${crossSite ? 'cross-site' : 'same-site'} origins × ${KIB_PER_ORIGIN} KB localStorage, ${ORIGINS} cookies; import body ${fmt(importBytes / 1024 / 1024, 2)} MB); in the browser: ${cookies} cookies, ${items} localStorage items on ${originOf(7)}`,
  );
  console.log(`load: ${rounds} rounds after ${warmup} warm-ups; save: ${saves} each after 1 warm-up; a fresh Chromium per session`);
  console.log(`${''.padEnd(52)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(9)}${'min ms'.padStart(9)}${'max ms'.padStart(9)}`);
  const row = (name: string, xs: number[]) => {
    const s = stats(xs);
    console.log(`${name.padEnd(52)}${fmt(s.p50, 0).padStart(8)}${fmt(s.p95, 0).padStart(9)}${fmt(s.min, 0).padStart(9)}${fmt(s.max, 0).padStart(9)}`);
  };
  row('raw ws: connect → 101, no profile', samples.rawPlain101);
  row('raw ws: connect → 101, profile readOnly', samples.rawLoaded101);
  row('raw ws: connect → first reply, no profile', samples.rawPlain);
  row('raw ws: connect → first reply, profile readOnly', samples.rawLoaded);
  row('connectOverCDP ready, no profile', samples.pwPlain);
  row('connectOverCDP ready, profile readOnly', samples.pwLoaded);
  row('  (the imported version: JSON, a helper tab per origin)', fromJson);
  row('save: close → version listed, nothing changed', save.same);
  row('save: close → version listed, one origin changed', save.changed);
  row('  (browser.close() returned, nothing changed)', save.closeSame);
  row('  (browser.close() returned, one origin changed)', save.closeChanged);
  if (save.lost.same + save.lost.changed > 0)
    console.log(
      `sessions that ended without a new version (not in the save rows): nothing changed ${save.lost.same} of ${saves}, one origin changed ${save.lost.changed} of ${saves}`,
    );
  const p50 = (xs: number[]) => stats(xs).p50;
  console.log(
    `load extra over baseline at p50: raw first reply +${fmt(p50(samples.rawLoaded) - p50(samples.rawPlain), 0)} ms, connectOverCDP +${fmt(p50(samples.pwLoaded) - p50(samples.pwPlain), 0)} ms`,
  );
  console.log(
    `ratio load/baseline at p50: raw first reply ${fmt(p50(samples.rawLoaded) / p50(samples.rawPlain), 2)}, connectOverCDP ${fmt(p50(samples.pwLoaded) / p50(samples.pwPlain), 2)}`,
  );
  const readyP50 = p50(samples.pwLoaded);
  console.log(
    `target: a 1 MB / ${ORIGINS}-origin profile ready ≤ ${TARGET_MS} ms p50: connectOverCDP ${fmt(readyP50, 0)} ms — ${readyP50 <= TARGET_MS ? 'met' : 'NOT met'} (raw first reply ${fmt(p50(samples.rawLoaded), 0)} ms)`,
  );
  console.log(
    `last saved version: v${last.version}, ${fmt(last.sizeBytes / 1024 / 1024, 2)} MB, ${last.capturedOrigins.length} origins; its capture in the browser took ${exported.meta?.durationMs ?? '?'} ms`,
  );
} finally {
  await disconnect();
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
