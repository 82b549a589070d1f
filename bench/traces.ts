// bench/traces — the two targets of traces (docs/traces.md), in one run against one stack
// (embedded PostgreSQL, web, proxy, pool) whose router has a standalone Chromium as provider.
// Each figure is judged beside a baseline measured in the same run.
//  1. Capture's cost to a page load: Playwright (connectOverCDP) loads the test site's
//     `/many?n=100` (100 images, never cached) --loads times per session, each `page.goto` timed to
//     its `load` event: a plain session (fast lane), a plain session on a second proxy forced to
//     the pipeline lane (PROXY_LANE=pipeline: the lane's own cost, without capture) and a traced
//     session (observability=true). One session per variant per round, the order rotating, after a
//     warm-up round (sessions open together would each see the others' tabs). Target: traced p50
//     ≤ 1.10 × plain p50. Beside it: the events each traced load produced (from the Trace rows once
//     complete), and the CPU time of the proxy process carrying each variant during its loads
//     (Linux /proc; the whole process, its background work included).
//  2. Paging a trace of --events (100,000) events: written through the capture's EventStore into
//     the stack's blob store (request/response/finished per request with a browser's header sets,
//     URLs of about 80 characters, failures, console lines, navigations), with its session and a
//     complete Trace row; then GET /v1/inspections/:id/events?page=n of --page-requests random pages
//     with an account bearer, the whole body read. Target: p95 ≤ 100 ms. Baseline: GET
//     /v1/inspections/:id (the same trace's row: the smallest authenticated call) timed alike,
//     interleaved, with the same page asked for uncompressed (fetch, like a browser, accepts gzip,
//     and Next compresses). Beside them: a page file read, parsed and serialized in this process,
//     and one `download=gz` of the whole trace.
// Linux only (/proc). The machine should be otherwise idle: other work's swings are larger than 10 %.
//   npx tsx bench/traces.ts [--rounds 6] [--loads 10] [--subresources 100] [--events 100000] [--page-requests 100]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { chromium as playwright } from 'playwright-core';
import WebSocket from 'ws';
import { launchChromium, type Chromium } from '../e2e/support/chromium';
import { startTestSite, type TestSite } from '../e2e/support/test-site';
import type { BlobStore, BlobWriter } from '../lib/blobs/store';
import { FsBlobStore } from '../lib/blobs/fs-store';
import {
  PAGE_SIZE,
  pageKey,
  pagesOf,
  parsePage,
  type CapturedEvent,
  type Headers,
  type TraceEvent,
  type TraceEventKind,
  type TraceSummary,
} from '../lib/traces/format';
import { EventStore } from '../proxy/plugins/trace/event-store';
import { freePort, waitForListening } from '../scripts/lib/ports';
import { startChild, stopChild, tsxBin } from '../scripts/lib/processes';
import { startStack, type Stack } from '../scripts/lib/stack';
import { fmt, percentile } from './lib';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    loads: { type: 'string', default: '10' },
    subresources: { type: 'string', default: '100' },
    events: { type: 'string', default: '100000' },
    'page-requests': { type: 'string', default: '100' },
  },
});
const rounds = Number(values.rounds);
const loads = Number(values.loads);
const subresources = Number(values.subresources);
const eventTotal = Number(values.events);
const pageRequests = Number(values['page-requests']);
const TARGETS = { loadRatio: 1.1, pageP95Ms: 100 };
/** Untimed loads at the start of every session (the tab's first navigation and connections). */
const WARMUP_LOADS = 1;
/** Untimed requests of each endpoint before the paging is measured. */
const WARMUP_REQUESTS = 10;
/** The writer backlog the trace writer lets build before it waits (the EventStore drops events past 16 MB). */
const WRITE_BACKLOG_BYTES = 4 * 1024 * 1024;
/** Events added between two turns of the event loop while the trace is written. */
const YIELD_EVERY = 100;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'br-bench-traces-'));
let stack: Stack | null = null;
let browser: Chromium | null = null;
let site: TestSite | null = null;
let pipelineProxy: ChildProcess | null = null;
let disconnect = async () => {};
let cleaning: Promise<void> | null = null;
const cleanup = () =>
  (cleaning ??= (async () => {
    for (const step of [
      disconnect,
      async () => pipelineProxy && stopChild(pipelineProxy, 5_000),
      async () => stack?.stop(),
      async () => browser?.stop(),
      async () => site?.close(),
    ]) {
      await step().catch((error: Error) => console.error(`[bench] cleanup: ${error.message}`));
    }
    rmSync(dataDir, { recursive: true, force: true });
  })());
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanup().finally(() => process.exit(130)));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(check: () => Promise<T> | T, what: string, timeoutMs: number, everyMs = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p95: percentile(s, 95), max: s[s.length - 1] ?? NaN, mean: s.reduce((a, b) => a + b, 0) / (s.length || 1) };
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
const MB = 1024 * 1024;
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;

try {
  [site, browser] = await Promise.all([startTestSite(), launchChromium()]);
  const [webPort, proxyPort, pgPort, poolPort, pipelinePort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  // The provider and the pages are on loopback: a single-tenant policy (docs/security.md).
  const extraEnv = { LOG_LEVEL: 'warn', PRIVATE_NETWORK: 'allow', LOCAL_POOL_AUTO_PROVIDER: '0', SHUTDOWN_DRAIN_MS: '2000' };
  stack = await startStack({
    dataDir,
    webPort,
    proxyPort,
    poolPort,
    embeddedPostgresPort: pgPort,
    host: '127.0.0.1',
    quiet: true,
    log: (l) => console.error(`[bench] ${l}`),
    extraEnv,
  });
  const env = stack.env;
  const webUrl = stack.webUrl;
  pipelineProxy = startChild(
    'proxy-pipeline',
    [tsxBin, 'proxy/index.ts'],
    { ...env, PORT: String(pipelinePort), HOST: '127.0.0.1', PROXY_LANE: 'pipeline', PROXY_INSTANCE_ID: 'bench-pipeline', SERVICE_NAME: 'proxy' },
    true,
  );
  await waitForListening(pipelineProxy, pipelinePort);
  // The pool launches a browser to calibrate at start: let it finish before anything is measured.
  const poolStatus = async () =>
    (await (await fetch(`${stack!.poolUrl}/pool/status`, { headers: { authorization: `Bearer ${env.POOL_TOKEN}` } })).json()) as { calibrating: boolean };
  await until(async () => !(await poolStatus()).calibrating, 'the pool to calibrate', 120_000);

  Object.assign(process.env, {
    DATABASE_URL: env.DATABASE_URL,
    ENCRYPTION_KEY: env.ENCRYPTION_KEY,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    LOCAL_POOL_AUTO_PROVIDER: '0',
  });
  const { seedUser } = await import('../lib/users/seed-user');
  const { addProvider } = await import('../e2e/support/providers');
  const { routerKey } = await import('../e2e/support/connect');
  const { post } = await import('../lib/billing/ledger');
  const { createTrace, finishTrace } = await import('../lib/traces/store');
  const { newTraceId } = await import('../proxy/plugins/trace/index');
  const { db } = await import('../lib/db');
  disconnect = () => db.$disconnect();
  const user = await seedUser({ email: 'bench-traces@example.test', password: 'benchmark password' });
  const routerId = user.routerId!;
  const provider = await addProvider(user.workspaceId, routerId, { slug: 'chromium', url: browser.wsUrl });
  // Tracing needs a positive balance; 100 USD is millions of events.
  await post(db, user.workspaceId, [{ kind: 'grant', amountMillicents: 10_000_000n, cause: `grant:${randomUUID()}` }]);
  const key = await routerKey(user.workspaceId, routerId);
  const connectUrl = (port: number, traced: boolean) =>
    `ws://127.0.0.1:${port}/v1/connect?${new URLSearchParams({ token: key, ...(traced ? { observability: 'true' } : {}) })}`;
  const variants = { plain: connectUrl(proxyPort, false), pipeline: connectUrl(pipelinePort, false), traced: connectUrl(proxyPort, true) };
  type Variant = keyof typeof variants;

  // 1. Page loads: one session per variant per round, one session at a time (sessions open together
  // would each see the others' tabs: Playwright over CDP attaches to every page of the browser, and
  // a traced session would capture them all), the order rotating; each session's end written, and
  // its trace complete, before the next starts.
  const blobsDir = path.join(dataDir, 'blobs');
  const loadMs: Record<Variant, number[]> = { plain: [], pipeline: [], traced: [] };
  const roundRatios: number[] = [];
  const roundP50s: Record<Variant, number>[] = [];
  const traced = { sessions: 0, loads: 0, events: 0, bytes: 0, dropped: 0, kinds: new Map<TraceEventKind, number>() };
  const order: Variant[] = ['plain', 'traced', 'pipeline'];
  const loadAverages = { loadsBefore: os.loadavg()[0]!, loadsAfter: 0, pagingBefore: 0, pagingAfter: 0 };
  let sequence = 0;
  const siteUrl = site.url;
  const pageUrl = (variant: Variant) =>
    `${siteUrl}/many?${new URLSearchParams({ n: String(subresources), v: `${variant}-${sequence++}-${randomUUID().slice(0, 8)}` })}`;
  // The proxy process that carries each variant, for its CPU time during the timed loads.
  const proxyOf = (child: ChildProcess) => processTree(child.pid!);
  const stackProxy = stack.children.find((c) => c.spawnargs.includes('proxy/index.ts'))!;
  const proxyPids: Record<Variant, number[]> = { plain: proxyOf(stackProxy), traced: proxyOf(stackProxy), pipeline: proxyOf(pipelineProxy) };
  const proxyCpuMs: Record<Variant, number> = { plain: 0, pipeline: 0, traced: 0 };
  const session = async (variant: Variant) => {
    const pw = await playwright.connectOverCDP(variants[variant]);
    let cpu = 0;
    let sessionId: string;
    const samples: number[] = [];
    try {
      // One session at a time, the last one's end awaited: the active one is this one.
      sessionId = (
        await until(
          () => db.sessionLog.findFirst({ where: { workspaceId: user.workspaceId, state: 'active' }, orderBy: { startedAt: 'desc' }, select: { id: true } }),
          'the session row',
          10_000,
          20,
        )
      ).id;
      const page = await pw.contexts()[0]!.newPage();
      for (let i = 0; i < WARMUP_LOADS; i++) await page.goto(pageUrl(variant), { waitUntil: 'load' });
      const cpu0 = cpuMs(proxyPids[variant]);
      for (let i = 0; i < loads; i++) {
        const url = pageUrl(variant);
        const t0 = performance.now();
        await page.goto(url, { waitUntil: 'load' });
        samples.push(performance.now() - t0);
      }
      cpu = cpuMs(proxyPids[variant]) - cpu0;
      const loaded = await page.evaluate(() => [...document.images].filter((img) => img.complete && img.naturalWidth > 0).length);
      if (loaded !== subresources) throw new Error(`the ${variant} page loaded ${loaded} of its ${subresources} images`);
      await page.close();
    } finally {
      await pw.close();
    }
    await until(async () => (await db.sessionLog.findUniqueOrThrow({ where: { id: sessionId } })).state !== 'active', 'the session end', 30_000);
    const trace =
      variant === 'traced'
        ? await until(
            async () => {
              const t = await db.trace.findUnique({ where: { sessionLogId: sessionId } });
              return t?.complete ? t : null;
            },
            'the trace to complete',
            30_000,
          )
        : null;
    return { samples, trace, cpu };
  };
  for (let round = -1; round < rounds; round++) {
    const p50s: Partial<Record<Variant, number>> = {};
    for (let k = 0; k < order.length; k++) {
      const variant = order[(k + Math.max(0, round)) % order.length]!;
      const { samples, trace, cpu } = await session(variant);
      if (round < 0) continue;
      loadMs[variant].push(...samples);
      proxyCpuMs[variant] += cpu;
      p50s[variant] = stats(samples).p50;
      if (trace) {
        traced.sessions++;
        traced.loads += WARMUP_LOADS + loads;
        traced.events += trace.eventCount;
        traced.bytes += Number(trace.sizeBytes);
        traced.dropped += trace.droppedEvents;
        for (let p = 0; p < pagesOf(trace.eventCount); p++) {
          for (const event of parsePage(readFileSync(path.join(blobsDir, pageKey(trace.id, p)), 'utf8')))
            traced.kinds.set(event.kind, (traced.kinds.get(event.kind) ?? 0) + 1);
        }
      }
    }
    if (round >= 0) {
      roundRatios.push(p50s.traced! / p50s.plain!);
      roundP50s.push(p50s as Record<Variant, number>);
    }
    console.error(`[bench] page loads: round ${round < 0 ? 'warm-up' : `${round + 1}/${rounds}`} done`);
  }
  loadAverages.loadsAfter = os.loadavg()[0]!;
  // What each lane negotiates for a client that offers compression as Playwright does: the fast
  // lane passes the offer on to Chromium, the pipeline lane keeps payloads uncompressed.
  const extensions = {} as Record<Variant, string>;
  for (const variant of order) {
    const ws = new WebSocket(variants[variant], [], {
      perMessageDeflate: { clientNoContextTakeover: true, zlibDeflateOptions: { level: 3 }, threshold: 10 * 1024 },
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    extensions[variant] = ws.extensions || 'none';
    const closed = new Promise((r) => ws.once('close', r));
    ws.close();
    await closed;
  }
  await until(
    async () => (await db.sessionLog.count({ where: { workspaceId: user.workspaceId, state: 'active' } })) === 0,
    'the probe sessions to end',
    30_000,
  );

  // 2. A trace of `eventTotal` events written as the capture writes it, with its session and row.
  const fsStore = new FsBlobStore(blobsDir);
  const writers = new Set<BlobWriter>();
  // The capture's EventStore on the stack's blobs; the writers are kept to wait for storage instead of dropping events.
  const store: BlobStore = {
    writer: (k) => {
      const w = fsStore.writer(k);
      writers.add(w);
      return w;
    },
    put: (k, d) => fsStore.put(k, d),
    get: (k) => fsStore.get(k),
    size: (k) => fsStore.size(k),
    read: (k, r) => fsStore.read(k, r),
    deleteFolder: (p) => fsStore.deleteFolder(p),
  };
  const startedAt = new Date(Date.now() - 2 * 3_600_000);
  const sessionRow = await db.sessionLog.create({
    data: { workspaceId: user.workspaceId, routerId, providerId: provider.id, providerSlug: 'chromium', providerName: 'chromium', state: 'active', startedAt },
  });
  const traceId = newTraceId();
  await createTrace({ id: traceId, workspaceId: user.workspaceId, sessionLogId: sessionRow.id, routerId, providerId: provider.id, startedAt });
  const events = new EventStore(store, traceId, Number.MAX_SAFE_INTEGER);
  const source = syntheticEvents(startedAt.getTime(), 0x7ace5);
  const writeStarted = performance.now();
  for (let i = 0; i < eventTotal; i++) {
    if (events.add(source.next().value) !== 'stored') throw new Error(`event ${i} was not stored`);
    // A turn of the event loop now and then, as the capture's socket reads give: a new page file
    // opens in one (until then its writer's backlog is summed over every queued line, on each add).
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((r) => setImmediate(r));
    if (i % PAGE_SIZE === PAGE_SIZE - 1) {
      const backlog = () => [...writers].reduce((n, w) => n + w.pendingBytes, 0);
      if (backlog() > WRITE_BACKLOG_BYTES) await until(() => backlog() <= WRITE_BACKLOG_BYTES, 'the trace writes to catch up', 60_000, 2);
    }
  }
  const endedAt = new Date(source.next().value.t);
  const summary: TraceSummary = await events.close({
    traceId,
    sessionId: sessionRow.id,
    startedAt: startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    durationMs: endedAt.getTime() - startedAt.getTime(),
    truncated: null,
  });
  const writeMs = performance.now() - writeStarted;
  if (summary.droppedEvents > 0) throw new Error(`${summary.droppedEvents} events dropped while writing the trace`);
  await db.sessionLog.update({ where: { id: sessionRow.id }, data: { state: 'closed', endedAt, durationMs: summary.durationMs } });
  if (!(await finishTrace(summary))) throw new Error('the trace row was not finished');
  const kindsWritten = new Map<string, number>();
  for (const event of parsePage(await readFile(path.join(blobsDir, pageKey(traceId, 0)), 'utf8')))
    kindsWritten.set(event.kind, (kindsWritten.get(event.kind) ?? 0) + 1);
  console.error(`[bench] wrote a trace of ${summary.eventCount} events (${fmt(summary.sizeBytes / MB, 1)} MB) in ${fmt(writeMs / 1000, 1)} s`);

  // The paging: random pages and the row, interleaved, with the account's bearer.
  const auth = { headers: { authorization: `Bearer ${user.accessToken}` } };
  const eventsUrl = (page: number) => `${webUrl}/v1/inspections/${traceId}/events?page=${page}`;
  const rowUrl = `${webUrl}/v1/inspections/${traceId}`;
  const timedGet = async (url: string, headers: Record<string, string> = {}) => {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { ...auth.headers, ...headers } });
    const body = await res.arrayBuffer();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${Buffer.from(body).toString('utf8').slice(0, 300)}`);
    return { ms, body: Buffer.from(body), encoding: res.headers.get('content-encoding') ?? 'identity' };
  };
  const random = mulberry32(0x9a9e5);
  const pages = summary.pages;
  const checkPage = (body: Buffer, page: number) => {
    const { data } = JSON.parse(body.toString('utf8')) as { data: { events: TraceEvent[]; page: number; pages: number; eventCount: number } };
    const expected = Math.min(PAGE_SIZE, summary.eventCount - page * PAGE_SIZE);
    if (
      data.page !== page ||
      data.pages !== pages ||
      data.eventCount !== summary.eventCount ||
      data.events.length !== expected ||
      data.events[0]?.seq !== page * PAGE_SIZE
    ) {
      throw new Error(`page ${page}: ${data.events.length} events from seq ${data.events[0]?.seq}, pages ${data.pages}, eventCount ${data.eventCount}`);
    }
  };
  // Three calls per step, their order rotating: a page as fetch (and a browser) asks for it (gzip
  // accepted), the same page uncompressed (what compression costs), and the trace's row.
  const IDENTITY = { 'accept-encoding': 'identity' };
  for (let i = 0; i < WARMUP_REQUESTS; i++) {
    checkPage((await timedGet(eventsUrl(i % pages))).body, i % pages);
    checkPage((await timedGet(eventsUrl(i % pages), IDENTITY)).body, i % pages);
    await timedGet(rowUrl);
  }
  loadAverages.pagingBefore = os.loadavg()[0]!;
  const pageMs: number[] = [];
  const identityMs: number[] = [];
  const rowMs: number[] = [];
  const pageBytes: number[] = [];
  const encodings = new Set<string>();
  let sampleBody: Buffer | null = null;
  for (let i = 0; i < pageRequests; i++) {
    const page = Math.floor(random() * pages);
    const calls = [
      async () => {
        const { ms, body, encoding } = await timedGet(eventsUrl(page));
        pageMs.push(ms);
        pageBytes.push(body.length);
        encodings.add(encoding);
        if (page < pages - 1) sampleBody = body;
        checkPage(body, page);
      },
      async () => {
        const { ms, body } = await timedGet(eventsUrl(page), IDENTITY);
        identityMs.push(ms);
        checkPage(body, page);
      },
      async () => rowMs.push((await timedGet(rowUrl)).ms),
    ];
    for (let k = 0; k < calls.length; k++) await calls[(k + i) % calls.length]!();
  }
  loadAverages.pagingAfter = os.loadavg()[0]!;
  // The floor of a page in any process: its file read, parsed and serialized again, here.
  const floorMs: number[] = [];
  for (let i = 0; i < pageRequests; i++) {
    const page = Math.floor(random() * pages);
    const t0 = performance.now();
    JSON.stringify({ ok: true, data: { events: parsePage(await readFile(path.join(blobsDir, pageKey(traceId, page)), 'utf8')) } });
    floorMs.push(performance.now() - t0);
  }
  // The whole trace as one gzip download (information).
  const { ms: gzMs, body: gz } = await timedGet(`${webUrl}/v1/inspections/${traceId}/events?download=gz`);
  const downloaded = JSON.parse(gunzipSync(gz).toString('utf8')) as TraceEvent[];
  if (downloaded.length !== summary.eventCount) throw new Error(`download=gz held ${downloaded.length} of ${summary.eventCount} events`);

  // The report.
  const version = (await (await fetch(`${browser.httpUrl}/json/version`)).json()) as { Browser: string };
  console.log(`traces benchmark: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${version.Browser}, Node ${process.version}`);

  const plain = stats(loadMs.plain);
  const tracedStats = stats(loadMs.traced);
  console.log(
    `\n1. Page load through the proxy (Playwright page.goto to 'load' of a page with ${subresources} images, never cached): ${rounds} rounds × ${loads} loads per session after a warm-up round (and ${WARMUP_LOADS} untimed load per session), order rotating`,
  );
  console.log(
    `${''.padEnd(46)}${'loads'.padStart(7)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'mean ms'.padStart(9)}${'p50 vs plain'.padStart(14)}${'proxy CPU ms/load'.padStart(19)}`,
  );
  for (const [variant, name] of [
    ['plain', 'plain session (fast lane)'],
    ['pipeline', 'plain session, pipeline lane (PROXY_LANE)'],
    ['traced', 'traced session (observability=true)'],
  ] as const) {
    const s = stats(loadMs[variant]);
    console.log(
      `  ${name.padEnd(44)}${String(s.n).padStart(7)}${fmt(s.p50, 1).padStart(9)}${fmt(s.p95, 1).padStart(9)}${fmt(s.mean, 1).padStart(9)}${fmt(s.p50 / plain.p50, 3).padStart(14)}${fmt(proxyCpuMs[variant] / s.n, 1).padStart(19)}`,
    );
  }
  const loadRatio = tracedStats.p50 / plain.p50;
  console.log(
    `  WebSocket compression negotiated for Playwright's offer: fast lane ${extensions.plain}, pipeline lane ${extensions.pipeline}, traced ${extensions.traced}${extensions.plain !== extensions.traced ? " (so traced vs pipeline-lane plain is capture's own cost; traced vs plain also holds the compression the fast lane lets through)" : ''}`,
  );
  console.log(
    `  traced vs pipeline-lane plain at p50: ${fmt(tracedStats.p50 / stats(loadMs.pipeline).p50, 3)}; median of the per-round ratios traced/plain: ${fmt(median(roundRatios), 3)} (rounds: ${roundRatios.map((r) => fmt(r, 2)).join(', ')})`,
  );
  console.log(
    `  per-round p50 ms (plain / pipeline / traced): ${roundP50s.map((r) => `${fmt(r.plain, 0)}/${fmt(r.pipeline, 0)}/${fmt(r.traced, 0)}`).join(', ')}`,
  );
  const kindMix = [...traced.kinds]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${kind} ${fmt(n / traced.loads, 1)}`)
    .join(', ');
  console.log(
    `  captured: ${fmt(traced.events / traced.loads, 1)} events per traced load (${traced.events} events in ${traced.sessions} sessions of ${WARMUP_LOADS + loads} loads; ${kindMix}), ${fmt(traced.bytes / traced.events, 0)} bytes per event, ${traced.dropped} dropped`,
  );
  console.log(
    `  1-min load average ${fmt(loadAverages.loadsBefore, 1)} before the loads, ${fmt(loadAverages.loadsAfter, 1)} after (${os.cpus().length} cores)`,
  );
  console.log(`  target: traced p50 ≤ ${TARGETS.loadRatio} × plain p50: ${fmt(loadRatio, 3)} — ${verdict(loadRatio <= TARGETS.loadRatio)}`);

  const page = stats(pageMs);
  const row = stats(rowMs);
  const floor = stats(floorMs);
  console.log(
    `\n2. Paging a trace of ${summary.eventCount} events (${summary.pages} pages of ${PAGE_SIZE}, ${fmt(summary.sizeBytes / MB, 1)} MB of NDJSON, ${fmt(summary.sizeBytes / summary.eventCount, 0)} bytes per event; first page: ${[...kindsWritten].map(([k, n]) => `${k} ${n}`).join(', ')}): ${pageRequests} random pages, bearer, whole body read, interleaved with the baseline`,
  );
  console.log(`${''.padEnd(52)}${'calls'.padStart(7)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'max ms'.padStart(9)}`);
  const identity = stats(identityMs);
  // What a gzip answer weighs on the wire (the same level as the server's, zlib's default), for one full page.
  const gzipBytes = sampleBody ? gzipSync(sampleBody).length : NaN;
  console.log(
    `  ${`GET /v1/inspections/:id/events?page=n (${[...encodings].join('/')})`.padEnd(50)}${String(page.n).padStart(7)}${fmt(page.p50, 1).padStart(9)}${fmt(page.p95, 1).padStart(9)}${fmt(page.max, 1).padStart(9)}`,
  );
  console.log(
    `  ${'  the same, accept-encoding: identity'.padEnd(50)}${String(identity.n).padStart(7)}${fmt(identity.p50, 1).padStart(9)}${fmt(identity.p95, 1).padStart(9)}${fmt(identity.max, 1).padStart(9)}`,
  );
  console.log(
    `  ${'GET /v1/inspections/:id (baseline)'.padEnd(50)}${String(row.n).padStart(7)}${fmt(row.p50, 1).padStart(9)}${fmt(row.p95, 1).padStart(9)}${fmt(row.max, 1).padStart(9)}`,
  );
  console.log(
    `  ${'a page file read + parsed + serialized, in-process'.padEnd(50)}${String(floor.n).padStart(7)}${fmt(floor.p50, 1).padStart(9)}${fmt(floor.p95, 1).padStart(9)}${fmt(floor.max, 1).padStart(9)}`,
  );
  console.log(
    `  a page's answer: ${fmt(stats(pageBytes).p50 / 1024, 0)} KB of JSON (p50), ${fmt(gzipBytes / 1024, 0)} KB gzipped; events page minus the row: ${fmt(page.p50 - row.p50, 1)} ms at p50, ${fmt(page.p95 - row.p95, 1)} ms at p95`,
  );
  // Each page call paired with the row call of the same step (one after the other): the page's own cost, with the machine's swings mostly cancelled.
  const paired = stats(pageMs.map((ms, i) => ms - rowMs[i]!));
  console.log(`  paired (each page call minus the row call of its step): p50 ${fmt(paired.p50, 1)} ms, p95 ${fmt(paired.p95, 1)} ms`);
  console.log(
    `  download=gz of the whole trace: ${fmt(gzMs / 1000, 2)} s, ${fmt(gz.length / MB, 1)} MB gzip = ${fmt(gz.length / MB / (gzMs / 1000), 1)} MB/s (${fmt(summary.sizeBytes / MB / (gzMs / 1000), 1)} MB/s of events, ${fmt(summary.eventCount / (gzMs / 1000) / 1000, 0)}k events/s)`,
  );
  console.log(`  (the trace written through EventStore in ${fmt(writeMs / 1000, 1)} s: ${fmt(summary.eventCount / (writeMs / 1000) / 1000, 0)}k events/s)`);
  console.log(`  1-min load average ${fmt(loadAverages.pagingBefore, 1)} before the paging, ${fmt(loadAverages.pagingAfter, 1)} after`);
  console.log(`  target: p95 ≤ ${TARGETS.pageP95Ms} ms per page: ${fmt(page.p95, 1)} ms — ${verdict(page.p95 <= TARGETS.pageP95Ms)}`);
} finally {
  await cleanup();
}

/** A small seeded PRNG (mulberry32): the same trace and the same pages on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Events as a browser session on real sites produces them, without end: a tab opens, then visits
 * follow — a navigation, the document, 20–80 subresources of several origins (request, response,
 * finished; a few fail or are blocked), some console lines and the odd exception — with a
 * browser's request headers and a CDN's response headers, URLs of about 80 characters.
 */
function* syntheticEvents(startMs: number, seed: number): Generator<CapturedEvent, never> {
  const random = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('');
  const tab = hex(32).toUpperCase();
  const frameId = tab;
  let t = startMs;
  let monotonic = 81_234.5;
  let requestSeq = 1_000;
  const tick = (ms: number) => {
    t += ms;
    monotonic += ms / 1000;
  };
  const ua = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const clientHints = { 'sec-ch-ua': '"Chromium";v="131", "Not_A Brand";v="24"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Linux"' };
  const sites = ['https://www.northwind-outfitters.com', 'https://shop.bluefin-travel.example.org', 'https://news.harborlight-daily.com'];
  const cdns = ['https://cdn.jsdelivr-mirror.net', 'https://static.cloudfront-assets.com', 'https://fonts.gstatic.com', 'https://images.imgix-cache.net'];
  const thirdParty = ['https://www.google-analytics.com', 'https://connect.facebook.net', 'https://js.stripe.com', 'https://browser-intake.datadoghq.com'];
  const kinds = [
    { type: 'Script', ext: 'js', mime: 'application/javascript', accept: '*/*', weight: 25, size: [8_000, 220_000] },
    { type: 'Stylesheet', ext: 'css', mime: 'text/css', accept: 'text/css,*/*;q=0.1', weight: 10, size: [2_000, 90_000] },
    {
      type: 'Image',
      ext: 'webp',
      mime: 'image/webp',
      accept: 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8',
      weight: 40,
      size: [1_500, 300_000],
    },
    { type: 'Font', ext: 'woff2', mime: 'font/woff2', accept: '*/*', weight: 5, size: [15_000, 60_000] },
    { type: 'Fetch', ext: 'json', mime: 'application/json', accept: 'application/json, text/plain, */*', weight: 12, size: [300, 25_000] },
    { type: 'XHR', ext: 'json', mime: 'application/json', accept: '*/*', weight: 8, size: [200, 8_000] },
  ] as const;
  const totalWeight = kinds.reduce((n, k) => n + k.weight, 0);
  const kindOf = () => {
    let w = random() * totalWeight;
    for (const k of kinds) if ((w -= k.weight) < 0) return k;
    return kinds[0];
  };
  const words = ['product', 'gallery', 'checkout', 'article', 'vendor', 'runtime', 'hero', 'thumbnail', 'carousel', 'recommendations', 'session', 'pricing'];
  const httpDate = () => new Date(t).toUTCString();
  const timing = (): Record<string, number> => {
    const dns = random() < 0.2 ? int(1, 30) : -1;
    const connect = dns >= 0 ? dns + int(5, 40) : -1;
    const send = (connect >= 0 ? connect : 0) + random() * 2;
    const headers = send + int(10, 180) + random();
    return {
      requestTime: monotonic,
      proxyStart: -1,
      proxyEnd: -1,
      dnsStart: dns >= 0 ? 0.4 : -1,
      dnsEnd: dns,
      connectStart: dns >= 0 ? dns : -1,
      connectEnd: connect,
      sslStart: connect >= 0 ? dns + 2 : -1,
      sslEnd: connect,
      workerStart: -1,
      workerReady: -1,
      workerFetchStart: -1,
      workerRespondWithSettled: -1,
      sendStart: send,
      sendEnd: send + 0.1,
      pushStart: 0,
      pushEnd: 0,
      receiveHeadersStart: headers - 0.5,
      receiveHeadersEnd: headers,
    };
  };
  const responseHeaders = (mime: string, size: number, cacheable: boolean): Headers => ({
    'content-type': mime.startsWith('text/') || mime === 'application/javascript' || mime === 'application/json' ? `${mime}; charset=utf-8` : mime,
    'content-length': String(size),
    date: httpDate(),
    'cache-control': cacheable ? 'public, max-age=31536000, immutable' : 'private, no-cache, no-store, must-revalidate',
    ...(cacheable && { etag: `"${hex(32)}"`, 'last-modified': new Date(t - int(1, 90) * 86_400_000).toUTCString(), age: String(int(0, 86_400)) }),
    server: pick(['cloudflare', 'nginx', 'AmazonS3', 'envoy']),
    vary: 'Accept-Encoding',
    ...(mime.startsWith('text/') || mime.includes('javascript') || mime.includes('json') ? { 'content-encoding': 'br' } : {}),
    'access-control-allow-origin': '*',
    'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
    'x-cache': pick(['Hit from cloudfront', 'Miss from cloudfront', 'HIT', 'MISS']),
    ...(random() < 0.5 && { 'cf-ray': `${hex(16)}-FRA` }),
  });

  yield { kind: 'tab', t, tab, action: 'opened', url: 'about:blank' };
  for (;;) {
    const origin = pick(sites);
    const documentUrl = `${origin}/${pick(words)}/${pick(words)}-${hex(6)}/${int(10_000, 99_999)}?utm_source=newsletter&ref=${hex(6)}`;
    tick(int(800, 8_000));
    const request = (url: string, type: string, accept: string, referer: string | null) => {
      const requestId = `${int(10_000, 99_999)}.${requestSeq++}`;
      const event: CapturedEvent = {
        kind: 'request',
        t,
        tab,
        requestId,
        frameId,
        url,
        method: type === 'Fetch' && random() < 0.2 ? 'POST' : 'GET',
        type,
        headers: {
          Accept: accept,
          ...(referer && { Referer: referer }),
          'User-Agent': ua,
          ...clientHints,
          ...(type === 'Document' && { 'Upgrade-Insecure-Requests': '1' }),
        },
        initiator: type === 'Document' ? 'other' : pick(['parser', 'script', 'preload']),
        wallTime: t / 1000,
        timestamp: monotonic,
      };
      return { requestId, event };
    };
    const doc = request(documentUrl, 'Document', 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8', null);
    yield doc.event;
    tick(int(30, 250));
    const docSize = int(20_000, 180_000);
    yield {
      kind: 'response',
      t,
      tab,
      requestId: doc.requestId,
      url: documentUrl,
      status: 200,
      statusText: '',
      mimeType: 'text/html',
      headers: responseHeaders('text/html', docSize, false),
      protocol: 'h2',
      remoteAddress: `104.18.${int(0, 255)}.${int(0, 255)}:443`,
      fromCache: false,
      fromServiceWorker: false,
      timing: timing(),
      encodedDataLength: int(400, 900),
      type: 'Document',
      timestamp: monotonic,
    };
    yield { kind: 'navigation', t, tab, frameId, main: true, url: documentUrl, sameDocument: false };
    tick(int(5, 60));
    yield { kind: 'finished', t, tab, requestId: doc.requestId, encodedDataLength: docSize, timestamp: monotonic };
    const inFlight: { requestId: string; url: string; kind: (typeof kinds)[number]; fail: boolean }[] = [];
    const count = int(20, 80);
    for (let i = 0; i < count || inFlight.length > 0; i++) {
      // A few requests start, then some of those in flight answer and end, as a page's waterfall goes.
      if (i < count) {
        const kind = kindOf();
        const host = kind.type === 'Fetch' || kind.type === 'XHR' ? (random() < 0.6 ? origin : pick(thirdParty)) : random() < 0.7 ? pick(cdns) : origin;
        const url =
          kind.type === 'Fetch' || kind.type === 'XHR'
            ? `${host}/api/v2/${pick(words)}/${hex(8)}?session=${hex(12)}&locale=en-US`
            : `${host}/assets/${pick(words)}/${pick(words)}-${hex(8)}.${hex(10)}.${kind.ext}`;
        const { requestId, event } = request(url, kind.type, kind.accept, documentUrl);
        tick(random() * 15);
        yield event;
        inFlight.push({ requestId, url, kind, fail: random() < 0.03 });
      }
      while (inFlight.length > 0 && (i >= count || random() < 0.5)) {
        const done = inFlight.splice(Math.floor(random() * inFlight.length), 1)[0]!;
        tick(random() * 40);
        if (done.fail) {
          const blocked = random() < 0.5;
          yield {
            kind: 'failed',
            t,
            tab,
            requestId: done.requestId,
            errorText: blocked ? 'net::ERR_BLOCKED_BY_CLIENT' : 'net::ERR_ABORTED',
            canceled: !blocked,
            ...(blocked && { blockedReason: 'inspector' }),
            type: done.kind.type,
            timestamp: monotonic,
          };
          continue;
        }
        const size = int(done.kind.size[0], done.kind.size[1]);
        const status = done.kind.type === 'Fetch' && random() < 0.05 ? 404 : 200;
        yield {
          kind: 'response',
          t,
          tab,
          requestId: done.requestId,
          url: done.url,
          status,
          statusText: '',
          mimeType: done.kind.mime,
          headers: responseHeaders(done.kind.mime, size, done.kind.type !== 'Fetch' && done.kind.type !== 'XHR'),
          protocol: 'h2',
          remoteAddress: `151.101.${int(0, 255)}.${int(0, 255)}:443`,
          fromCache: false,
          fromServiceWorker: false,
          timing: timing(),
          encodedDataLength: int(300, 700),
          type: done.kind.type,
          timestamp: monotonic,
        };
        tick(random() * 30);
        yield { kind: 'finished', t, tab, requestId: done.requestId, encodedDataLength: size, timestamp: monotonic };
      }
      if (random() < 0.04) {
        tick(random() * 10);
        const level = pick(['log', 'log', 'info', 'warning', 'error'] as const);
        yield {
          kind: 'console',
          t,
          tab,
          level,
          source: level === 'warning' ? 'warn' : level,
          text: pick([
            `[analytics] page_view sent for ${documentUrl.slice(0, 60)} (client ${hex(12)})`,
            `Download the React DevTools for a better development experience: https://reactjs.org/link/react-devtools`,
            `[Deprecation] Listener added for a synchronous 'DOMNodeInserted' DOM Mutation Event. This event type is deprecated and will be removed from this browser very soon.`,
            `Failed to load resource: the server responded with a status of 404 ()`,
            `hydration finished in ${int(40, 900)} ms; ${int(3, 60)} components, ${int(0, 4)} suspended`,
          ]),
          url: `${pick(cdns)}/assets/runtime/vendor-${hex(8)}.js`,
          line: int(1, 4),
          column: int(1, 90_000),
        };
      }
      if (random() < 0.003) {
        yield {
          kind: 'exception',
          t,
          tab,
          text: "Uncaught TypeError: Cannot read properties of undefined (reading 'price')",
          stack: `TypeError: Cannot read properties of undefined (reading 'price')\n    at renderCart (${pick(cdns)}/assets/cart/cart-${hex(8)}.js:1:${int(100, 9000)})\n    at HTMLButtonElement.<anonymous> (${pick(cdns)}/assets/cart/cart-${hex(8)}.js:1:${int(100, 9000)})`,
          url: `${pick(cdns)}/assets/cart/cart-${hex(8)}.js`,
          line: 1,
          column: int(100, 9000),
        };
      }
    }
    if (random() < 0.3) {
      tick(int(500, 5_000));
      yield { kind: 'navigation', t, tab, frameId, main: true, url: `${documentUrl}#${pick(words)}`, sameDocument: true };
    }
  }
}

/** A process and its descendants (Linux /proc): the tsx launcher's node child is where the proxy runs. */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      children = children.concat(readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
    }
  } catch {
    return [];
  }
  return [pid, ...children.flatMap(processTree)];
}

/** CPU milliseconds (user + system) the processes have used so far. */
function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of proc(5))
    } catch {
      // gone
    }
  }
  return (ticks / CLOCK_TICKS) * 1000;
}
