// bench/recordings — the three targets of recorded sessions (issue 14), in one run against one
// stack (embedded PostgreSQL, web, proxy, pool) whose router has a standalone Chromium as provider.
// Each figure is judged beside a baseline measured in the same run.
//  1. Capture's cost to the session: p50/p95 of a CDP round trip (Runtime.evaluate "1+1" on a
//     flatten page session, raw WebSocket) on a page that changes every --tick-ms, so the recorder
//     captures frames while we measure: session_record=true vs a plain session (fast lane), and a
//     plain session on a second proxy forced to the pipeline lane (PROXY_LANE=pipeline). The rounds
//     rotate the order. Target: recorded p50 ≤ 1.15 × plain p50.
//  2. Frames captured per second from a page that repaints every 40 ms (25 changes/s), recorded for
//     --fps-seconds: the recording row's frameCount / durationMs. Target ≥ 10/s; the page's own rate beside it.
//  3. Encoding a recording of --encode-seconds of the same page: encodeRecording() timed in this
//     process on the stack's blobs (its video written to a scratch folder), and the stack's own
//     worker end to end (endedAt → mp4ReadyAt). Target ≤ 15 s per minute of recording on two cores.
//     Baseline: bare ffmpeg turning the same JPEGs into H.264 (same preset), run before and after;
//     CPU seconds beside wall time, since other work on the machine stretches the latter.
// Every recording's encode by the stack is let finish before the next measurement: it shares the cores.
//   npx tsx bench/recordings.ts [--rounds 6] [--seconds 3] [--tick-ms 250] [--fps-seconds 10] [--encode-seconds 60] [--viewport 1280x720|none]
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { launchChromium, type Chromium } from '../e2e/support/chromium';
import { FsBlobStore } from '../lib/blobs/fs-store';
import type { BlobStore } from '../lib/blobs/store';
import type { Recording } from '../lib/db/generated/client';
import { encodeRecording, type EncodeResult } from '../lib/recordings/encode-video';
import { chunkKey, completeKey, framesOfChunk, manifestKey, parseManifest, videoKey, type CompleteSummary, type FrameLine } from '../lib/recordings/format';
import { freePort, waitForListening } from '../scripts/lib/ports';
import { startChild, stopChild, tsxBin } from '../scripts/lib/processes';
import { startStack, type Stack } from '../scripts/lib/stack';
import { fmt, percentile } from './lib';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '3' },
    'tick-ms': { type: 'string', default: '250' },
    'fps-seconds': { type: 'string', default: '10' },
    'encode-seconds': { type: 'string', default: '60' },
    viewport: { type: 'string', default: '1280x720' },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const tickMs = Number(values['tick-ms']);
const fpsSeconds = Number(values['fps-seconds']);
const encodeSeconds = Number(values['encode-seconds']);
// Every page gets this viewport, as a Playwright page has by default (`none`: the headless window's own).
const viewport =
  values.viewport === 'none'
    ? null
    : (/^(\d+)x(\d+)$/
        .exec(values.viewport ?? '')
        ?.slice(1)
        .map(Number) as [number, number] | undefined);
if (viewport === undefined) throw new Error('--viewport takes WxH (e.g. 1280x720) or none');
const ANIMATED_MS = 40;
const TARGETS = { rttRatio: 1.15, fps: 10, encodeSecondsPerMinute: 15 };
/** How long a queued encode may wait for the stack's worker before we conclude it has none. */
const WORKER_PICKUP_MS = 20_000;
const ENCODE_TIMEOUT_MS = 10 * 60_000;
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'br-bench-recordings-'));
const scratch = mkdtempSync(path.join(os.tmpdir(), 'br-bench-recordings-out-'));
let stack: Stack | null = null;
let browser: Chromium | null = null;
let site: { url: string; close(): Promise<void> } | null = null;
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
    rmSync(scratch, { recursive: true, force: true });
  })());
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanup().finally(() => process.exit(130)));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(check: () => Promise<T>, what: string, timeoutMs: number, everyMs = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** A connect session with one page of `pageUrl` attached (flatten), over a raw WebSocket. */
class PageSession {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  private page = '';
  private targetId = '';

  private constructor(
    private readonly ws: WebSocket,
    readonly sessionId: string,
  ) {
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: { message: string } };
      const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id!);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
    });
  }

  static async open(url: string, pageUrl: string): Promise<PageSession> {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    const sessionId = await new Promise<string>((resolve, reject) => {
      let id = '';
      ws.once('upgrade', (res) => (id = String(res.headers['x-session-id'])));
      ws.once('open', () => resolve(id));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
    });
    const session = new PageSession(ws, sessionId);
    session.targetId = (await session.call('Target.createTarget', { url: pageUrl })).targetId;
    session.page = (await session.call('Target.attachToTarget', { targetId: session.targetId, flatten: true })).sessionId;
    if (viewport)
      await session.call('Emulation.setDeviceMetricsOverride', { width: viewport[0], height: viewport[1], deviceScaleFactor: 1, mobile: false }, session.page);
    return session;
  }

  call(method: string, params: object = {}, sessionId?: string): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  async evaluate(expression: string): Promise<any> {
    const reply = await this.call('Runtime.evaluate', { expression, returnByValue: true }, this.page);
    return reply.result.value;
  }

  /** Waits until the page's counter reached `n`. */
  async ticks(n: number, everyMs = 20): Promise<void> {
    await until(async () => Number(await this.evaluate('window.ticks ?? 0')) >= n, `${n} ticks of the page`, 30_000 + n * 1_000, everyMs);
  }

  async close(): Promise<void> {
    await this.call('Target.closeTarget', { targetId: this.targetId }).catch(() => {});
    const closed = new Promise((r) => this.ws.once('close', r));
    this.ws.close();
    await closed;
  }
}

try {
  site = await startTickingSite();
  browser = await launchChromium();
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
  const { db } = await import('../lib/db');
  disconnect = () => db.$disconnect();
  const user = await seedUser({ email: 'bench-recordings@example.test', password: 'benchmark password' });
  await addProvider(user.workspaceId, user.routerId!, { slug: 'chromium', url: browser.wsUrl });
  // Recording needs a positive balance; 100 USD is hours of it.
  await post(db, user.workspaceId, [{ kind: 'grant', amountMillicents: 10_000_000n, cause: `grant:${randomUUID()}` }]);
  const key = await routerKey(user.workspaceId, user.routerId!);
  const url = (port: number, record: boolean) =>
    `ws://127.0.0.1:${port}/v1/connect?${new URLSearchParams({ token: key, ...(record ? { session_record: 'true' } : {}) })}`;
  const variants = { plain: url(proxyPort, false), pipeline: url(pipelinePort, false), recorded: url(proxyPort, true) };
  type Variant = keyof typeof variants;

  let workerSeen: boolean | null = null;
  /** The session's end written, its recording complete and (when the stack encodes) its video made or failed. */
  const settle = async (sessionId: string, recorded: boolean, pickupMs = workerSeen === false ? 0 : WORKER_PICKUP_MS): Promise<Recording | null> => {
    await until(async () => (await db.sessionLog.findUniqueOrThrow({ where: { id: sessionId } })).state !== 'active', 'the session end', 30_000);
    if (!recorded) return null;
    const complete = await until(
      async () => {
        const r = await db.recording.findUnique({ where: { sessionLogId: sessionId } });
        return r?.complete ? r : null;
      },
      'the recording to complete',
      30_000,
    );
    const started = Date.now();
    for (;;) {
      const r = await db.recording.findUniqueOrThrow({ where: { id: complete.id } });
      if (r.mp4Status === 'running' || r.mp4Status === 'ready' || r.mp4Status === 'failed') workerSeen = true;
      if (r.mp4Status !== 'queued' && r.mp4Status !== 'running') return r;
      if (r.mp4Status === 'queued' && !workerSeen && Date.now() - started >= pickupMs) {
        workerSeen = false;
        return r;
      }
      if (Date.now() - started > ENCODE_TIMEOUT_MS) return r;
      await sleep(100);
    }
  };
  const framesOf = async (recordingId: string) => {
    const blobsDir = path.join(dataDir, 'blobs');
    const summary = JSON.parse(readFileSync(path.join(blobsDir, completeKey(recordingId)), 'utf8')) as CompleteSummary;
    const frames = parseManifest(readFileSync(path.join(blobsDir, manifestKey(recordingId)), 'utf8')).filter((l): l is FrameLine => l.k === 'f');
    return { summary, frames, startMs: Date.parse(summary.startedAt) };
  };

  // 1. Round trips: one session per variant per round, the order rotating.
  const rtt: Record<Variant, number[]> = { plain: [], pipeline: [], recorded: [] };
  const roundRatios: number[] = [];
  const captured = { frames: 0, ms: 0 };
  const pageRates: number[] = [];
  const order: Variant[] = ['plain', 'recorded', 'pipeline'];
  for (let round = -1; round < rounds; round++) {
    const p50s: Partial<Record<Variant, number>> = {};
    for (let k = 0; k < order.length; k++) {
      const variant = order[(k + Math.max(0, round)) % order.length]!;
      const page = await PageSession.open(variants[variant], `${site.url}/?ms=${tickMs}`);
      await page.ticks(2);
      if (variant === 'recorded') {
        const row = await until(() => db.recording.findUnique({ where: { sessionLogId: page.sessionId } }), 'the recording row', 10_000);
        const manifest = path.join(dataDir, 'blobs', manifestKey(row.id));
        await until(
          async () => {
            try {
              return readFileSync(manifest, 'utf8').includes('"k":"f"');
            } catch {
              return false;
            }
          },
          'the first captured frame',
          15_000,
          20,
        );
      }
      for (let i = 0; i < 50; i++) await page.evaluate('1+1');
      const samples: number[] = [];
      const from = Date.now();
      const end = performance.now() + seconds * 1000;
      while (performance.now() < end) {
        const t0 = performance.now();
        await page.evaluate('1+1');
        samples.push(performance.now() - t0);
      }
      const to = Date.now();
      pageRates.push(await page.evaluate('window.changesPerSecond()'));
      await page.close();
      const recording = await settle(page.sessionId, variant === 'recorded');
      if (round < 0) continue;
      rtt[variant].push(...samples);
      p50s[variant] = percentile(
        [...samples].sort((a, b) => a - b),
        50,
      );
      if (recording) {
        const { frames, startMs } = await framesOf(recording.id);
        captured.frames += frames.filter((f) => f.t >= from - startMs && f.t <= to - startMs).length;
        captured.ms += to - from;
      }
    }
    if (round >= 0) roundRatios.push(p50s.recorded! / p50s.plain!);
    console.error(`[bench] round trips: round ${round < 0 ? 'warm-up' : round + 1} of ${rounds} done`);
  }
  // Its job worker would compete with the stack's for the encodes below.
  await stopChild(pipelineProxy, 5_000);

  /** A recorded session on the animated page until its counter says `secs` seconds passed. */
  const record = async (secs: number) => {
    const page = await PageSession.open(variants.recorded, `${site!.url}/?ms=${ANIMATED_MS}`);
    await page.ticks(Math.ceil((secs * 1000) / ANIMATED_MS), 500);
    const pageRate = (await page.evaluate('window.changesPerSecond()')) as number;
    await page.close();
    return { page, pageRate };
  };
  const fpsOf = (r: Recording) => r.frameCount / (r.durationMs / 1000);

  // 2. Frames per second.
  const fpsRun = await record(fpsSeconds);
  const fpsRecording = (await settle(fpsRun.page.sessionId, true))!;
  console.error('[bench] frames per second measured; recording the encode input');

  // 3. Encoding: the stack's worker first (alone on the cores), then the encoder in this process.
  const encodeRun = await record(encodeSeconds);
  const encoded = (await settle(encodeRun.page.sessionId, true, WORKER_PICKUP_MS))!;
  const workerMs = encoded.mp4Status === 'ready' && encoded.mp4ReadyAt && encoded.endedAt ? encoded.mp4ReadyAt.getTime() - encoded.endedAt.getTime() : null;
  // Where the worker's time went, from its pg-boss job row (left out if the queue's tables differ).
  const jobTimes = await (async () => {
    const { encodeJobId, ENCODE_QUEUE } = await import('../lib/jobs/encode-recording');
    const { jobsSchema } = await import('../lib/jobs/boss');
    const [job] = await db.$queryRawUnsafe<{ created_on: Date; started_on: Date | null }[]>(
      `SELECT created_on, started_on FROM "${jobsSchema()}".job WHERE name = $1 AND id = $2::uuid`,
      ENCODE_QUEUE,
      encodeJobId(encoded.id),
    );
    return job ?? null;
  })().catch(() => null);
  const source = new FsBlobStore(path.join(dataDir, 'blobs'));
  const output = new FsBlobStore(scratch);
  // Reads the stack's recording, writes the video beside it in the scratch folder (the worker's stays as it made it).
  const store: BlobStore = {
    get: (k) => source.get(k),
    size: (k) => source.size(k),
    read: (k, r) => source.read(k, r),
    put: (k, d) => output.put(k, d),
    writer: (k) => output.writer(k),
    deleteFolder: (p) => output.deleteFolder(p),
  };
  // The same-run baseline: bare ffmpeg making H.264 of the same JPEGs, each once, before and after the encoder.
  const bare = () => timed(() => bareFfmpeg(source, encoded.id, encoded.chunkCount, path.join(scratch, 'bare.mp4')));
  const loadBefore = os.loadavg()[0]!;
  const bareRuns = [await bare()];
  let direct: { result: EncodeResult; wallMs: number; cpuS: number; probedSeconds: number } | { error: string };
  try {
    const { value: result, wallMs, cpuS } = await timed(() => encodeRecording(store, encoded.id, { tmpDir: scratch }));
    const probed = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path.join(scratch, videoKey(encoded.id))])
      .toString()
      .trim();
    direct = { result, wallMs, cpuS, probedSeconds: Number(probed) };
  } catch (error) {
    direct = { error: (error as Error).message };
  }
  bareRuns.push(await bare());
  const loadAfter = os.loadavg()[0]!;

  // The report.
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { n: s.length, p50: percentile(s, 50), p95: percentile(s, 95) };
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const version = (await (await fetch(`${browser.httpUrl}/json/version`)).json()) as { Browser: string };
  console.log(
    `recordings benchmark: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${version.Browser}, ${execFileSync('ffmpeg', ['-version']).toString().split('\n')[0]}`,
  );

  const plain = stats(rtt.plain);
  console.log(
    `\n1. CDP round trip (Runtime.evaluate "1+1" on a ${viewport ? viewport.join('×') : 'window-sized'} page changing every ${tickMs} ms): ${rounds} rounds × ${seconds} s per session after a warm-up round, order rotating`,
  );
  console.log(`${''.padEnd(46)}${'calls'.padStart(8)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'p50 vs plain'.padStart(14)}`);
  for (const [variant, name] of [
    ['plain', 'plain session (fast lane)'],
    ['pipeline', 'plain session, pipeline lane (PROXY_LANE)'],
    ['recorded', 'recorded session (session_record=true)'],
  ] as const) {
    const s = stats(rtt[variant]);
    console.log(
      `  ${name.padEnd(44)}${String(s.n).padStart(8)}${fmt(s.p50, 3).padStart(9)}${fmt(s.p95, 3).padStart(9)}${fmt(s.p50 / plain.p50, 2).padStart(14)}`,
    );
  }
  const rttRatio = stats(rtt.recorded).p50 / plain.p50;
  console.log(
    `  recorder while measured: ${captured.frames} frames in ${fmt(captured.ms / 1000, 1)} s = ${fmt(captured.frames / (captured.ms / 1000), 1)} frames/s (the page: ${fmt(median(pageRates), 1)} changes/s)`,
  );
  console.log(
    `  recorded vs pipeline-lane plain at p50: ${fmt(stats(rtt.recorded).p50 / stats(rtt.pipeline).p50, 2)}; median of the per-round ratios recorded/plain: ${fmt(median(roundRatios), 2)}`,
  );
  console.log(`  target: recorded p50 ≤ ${TARGETS.rttRatio} × plain p50: ${fmt(rttRatio, 2)} — ${verdict(rttRatio <= TARGETS.rttRatio)}`);

  const fps = fpsOf(fpsRecording);
  console.log(`\n2. Frames captured from a page repainting every ${ANIMATED_MS} ms`);
  console.log(`${''.padEnd(46)}${'frames/s'.padStart(10)}${'frames'.padStart(8)}${'seconds'.padStart(9)}${'dupes'.padStart(7)}${'dropped'.padStart(9)}`);
  const fpsRow = (name: string, r: Recording) =>
    console.log(
      `  ${name.padEnd(44)}${fmt(fpsOf(r), 1).padStart(10)}${String(r.frameCount).padStart(8)}${fmt(r.durationMs / 1000, 1).padStart(9)}${String(r.duplicatesSkipped).padStart(7)}${String(r.droppedFrames).padStart(9)}`,
    );
  console.log(`  ${"the page's own changes (baseline)".padEnd(44)}${fmt(fpsRun.pageRate, 1).padStart(10)}`);
  fpsRow(`captured, ${fpsSeconds}-s recording`, fpsRecording);
  fpsRow(`  (captured, the ${encodeSeconds}-s recording of part 3)`, encoded);
  console.log(`  captured / the page's changes: ${fmt(fps / fpsRun.pageRate, 2)}`);
  console.log(`  target: ≥ ${TARGETS.fps} frames/s: ${fmt(fps, 1)} — ${verdict(fps >= TARGETS.fps)}`);

  const recordedSeconds = encoded.durationMs / 1000;
  const perMinute = (ms: number) => (ms / 1000) * (60 / recordedSeconds);
  console.log(
    `\n3. Encoding a ${fmt(recordedSeconds, 1)}-s recording (${encoded.frameCount} frames, ${fmt(Number(encoded.sizeBytes) / 1024 / 1024, 1)} MB of JPEG) to MP4`,
  );
  console.log(`${''.padEnd(46)}${'seconds'.padStart(9)}${'s per min'.padStart(11)}${'encode/rec'.padStart(12)}${'CPU s'.padStart(8)}`);
  const bareWallMs = (bareRuns[0]!.wallMs + bareRuns[1]!.wallMs) / 2;
  const bareCpuS = (bareRuns[0]!.cpuS + bareRuns[1]!.cpuS) / 2;
  if ('error' in direct) console.log(`  encodeRecording() in the bench process: failed: ${direct.error}`);
  else {
    const { result, wallMs, cpuS, probedSeconds } = direct;
    console.log(
      `  ${'encodeRecording() in the bench process'.padEnd(44)}${fmt(wallMs / 1000, 2).padStart(9)}${fmt(perMinute(wallMs), 2).padStart(11)}${fmt(wallMs / 1000 / recordedSeconds, 3).padStart(12)}${fmt(cpuS, 1).padStart(8)}`,
    );
    const t = result.timings;
    console.log(
      `    scan ${t.scanMs} ms, encode ${t.encodeMs} ms, join ${t.joinMs} ms, store ${t.storeMs} ms; video ${result.width}×${result.height} at ${result.fps} fps, ${fmt(probedSeconds, 2)} s (ffprobe), ${fmt(result.sizeBytes / 1024 / 1024, 2)} MB, ${result.encodedFrames} of its ${result.videoFrames} frames through x264 (the rest repeated pieces), ${result.segments} piece(s)`,
    );
  }
  if (workerMs !== null) {
    console.log(
      `  ${"the stack's worker: endedAt → mp4ReadyAt".padEnd(44)}${fmt(workerMs / 1000, 2).padStart(9)}${fmt(perMinute(workerMs), 2).padStart(11)}${fmt(workerMs / 1000 / recordedSeconds, 3).padStart(12)}`,
    );
    const at = jobTimes;
    if (at?.started_on) {
      const s = (a: Date, b: Date) => fmt((b.getTime() - a.getTime()) / 1000, 2);
      console.log(
        `    session end → job queued ${s(encoded.endedAt!, at.created_on)} s, queued → picked up ${s(at.created_on, at.started_on)} s, picked up → mp4ReadyAt ${s(at.started_on, encoded.mp4ReadyAt!)} s`,
      );
    }
  } else {
    console.log(
      `  the stack's worker: ${encoded.mp4Status === 'queued' && workerSeen === false ? `no encode picked up within ${WORKER_PICKUP_MS / 1000} s (mp4Status stayed queued: the stack runs no encode worker)` : `mp4Status ${encoded.mp4Status}${encoded.mp4Error ? `: ${encoded.mp4Error}` : ''}`}`,
    );
  }
  const bareFrames = bareRuns[0]!.value;
  console.log(
    `  ${`bare ffmpeg, the ${bareFrames} JPEGs once (baseline)`.padEnd(44)}${fmt(bareWallMs / 1000, 2).padStart(9)}${''.padStart(23)}${fmt(bareCpuS, 1).padStart(8)}`,
  );
  console.log(
    `    (mean of a run before and after the encoder: ${bareRuns.map((r) => fmt(r.wallMs / 1000, 2)).join(' s, ')} s; 1-min load average ${fmt(loadBefore, 1)} before, ${fmt(loadAfter, 1)} after)`,
  );
  if (!('error' in direct)) {
    const perFrame = (ms: number, frames: number) => ms / frames;
    console.log(
      `    encoder vs bare ffmpeg per frame through x264: wall ${fmt(perFrame(direct.wallMs, direct.result.encodedFrames) / perFrame(bareWallMs, bareFrames), 2)}, CPU ${fmt(perFrame(direct.cpuS, direct.result.encodedFrames) / perFrame(bareCpuS, bareFrames), 2)}; the encoder's CPU time spread on two idle cores: ≥ ${fmt(perMinute((direct.cpuS / 2) * 1000), 2)} s per minute`,
    );
  }
  if ('error' in direct) console.log(`  target: ≤ ${TARGETS.encodeSecondsPerMinute} s per minute of recording on two cores: not measured`);
  else
    console.log(
      `  target: ≤ ${TARGETS.encodeSecondsPerMinute} s per minute of recording on two cores: ${fmt(perMinute(direct.wallMs), 2)} s — ${verdict(perMinute(direct.wallMs) <= TARGETS.encodeSecondsPerMinute)}${os.cpus().length === 2 ? '' : ` (this machine has ${os.cpus().length} cores)`}`,
    );
} finally {
  await cleanup();
}

/** A local page that changes every `?ms=` milliseconds: a counter, a moving box, a background hue. */
async function startTickingSite() {
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const ms = Math.max(10, Number(new URL(req.url ?? '/', 'http://site').searchParams.get('ms')) || 250);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><meta charset="utf-8"><title>ticking</title>
<style>body { margin: 0; font: 48px sans-serif; } #box { position: absolute; top: 160px; width: 160px; height: 160px; background: #1e5ac8; }</style></head>
<body><p id="n">0</p><div id="box"></div><script>
  window.ticks = 0; const started = performance.now();
  window.changesPerSecond = () => window.ticks / ((performance.now() - started) / 1000);
  setInterval(() => {
    window.ticks++;
    document.getElementById('n').textContent = String(window.ticks);
    document.getElementById('box').style.left = (window.ticks % 100) * 6 + 'px';
    document.body.style.background = 'hsl(' + (window.ticks * 7) % 360 + ', 60%, 92%)';
  }, ${ms});
</script></body></html>`);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}

/** CPU seconds used so far by this process and by the children it has waited for (ffmpeg); Linux /proc. */
function cpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime, cstime: fields 14–17 of proc(5), counted from the state field (3).
  return [11, 12, 13, 14].reduce((n, i) => n + Number(fields[i]), 0) / CLOCK_TICKS;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; wallMs: number; cpuS: number }> {
  const cpu = cpuSeconds();
  const t0 = performance.now();
  const value = await run();
  return { value, wallMs: performance.now() - t0, cpuS: cpuSeconds() - cpu };
}

/** The floor of any encoder: ffmpeg turning the recording's JPEGs, each once, into H.264 (same preset, no timeline); returns the frames. */
async function bareFfmpeg(store: BlobStore, recordingId: string, chunks: number, out: string): Promise<number> {
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'image2pipe',
    '-c:v',
    'mjpeg',
    '-framerate',
    '25',
    '-i',
    'pipe:0',
    '-vf',
    'pad=ceil(iw/2)*2:ceil(ih/2)*2,format=yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-movflags',
    '+faststart',
    out,
  ];
  const child = spawn('ffmpeg', args, { stdio: ['pipe', 'ignore', 'inherit'] });
  const exited = once(child, 'close') as Promise<[number | null]>;
  let frames = 0;
  for (let i = 0; i < chunks; i++) {
    for (const jpeg of framesOfChunk((await store.get(chunkKey(recordingId, i))) ?? Buffer.alloc(0))) {
      frames++;
      if (!child.stdin.write(jpeg)) await once(child.stdin, 'drain');
    }
  }
  child.stdin.end();
  const [code] = await exited;
  if (code !== 0) throw new Error(`bare ffmpeg exited with ${code}`);
  return frames;
}
