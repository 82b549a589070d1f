// A recorded session as users run them: Playwright through the proxy, a context with its own
// viewport, on the stack's pool and on an address provider (a Chromium started with
// --remote-debugging-port, its default tab and all). The MP4 lasts as long as the session to
// within 0.5% (ffprobe), is the viewport's size, and its decoded frames show the page filling the
// picture: not squeezed into a column, not cut short at the start. The pool is the stack's own:
// this file takes its turn on the pool lane (scripts/test.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { db } from '../../lib/db';
import { manifestKey, parseManifest, videoKey } from '../../lib/recordings/format';
import { SLOT_MS } from '../../lib/recordings/video-timeline';
import { launchChromium, type Chromium } from '../support/chromium';
import { connectUrl, eventually, POOL_WS } from '../support/connect';
import { newestSessionId, userWithProvider } from '../support/capture';

const run = promisify(execFile);
const blobFile = (key: string) => path.join(process.env.DATA_DIR ?? '.data', 'blobs', ...key.split('/'));

const VIEWPORT = { width: 800, height: 600 };
/** The page's colour, edge to edge: what a decoded frame must show. */
const BACKGROUND = [0x20, 0x80, 0xc0] as const;
/**
 * The page animates this long, then holds still this long (an idle tail the video must keep), and
 * says it is done in its title (a title paints nothing): the session's script is the page's own.
 */
const ANIMATE_MS = 6_000;
const STILL_MS = 2_000;
const PAGE = `<html><body style="margin:0;background:rgb(${BACKGROUND.join(',')})">
<div id="n" style="position:fixed;left:8px;top:8px;font:12px monospace;color:#fff">0</div>
<script>
  // When the page was first on screen (the frame after the first one that drew it), by the clock
  // of the machine the session's start is recorded on.
  requestAnimationFrame(() => requestAnimationFrame(() => { window.paintedAt = Date.now(); }));
  const started = performance.now();
  const timer = setInterval(() => {
    const elapsed = performance.now() - started;
    if (elapsed <= ${ANIMATE_MS}) document.getElementById('n').textContent = String(Math.round(elapsed));
    else if (elapsed > ${ANIMATE_MS + STILL_MS}) { clearInterval(timer); document.title = 'done'; }
  }, 50);
</script></body></html>`;

let browser: Chromium;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.stop();
});

/** One frame of the video at `seconds`, scaled to 80×60, as RGB bytes. */
async function frameAt(file: string, seconds: number): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-vf', 'scale=80:60', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', maxBuffer: 1 << 20 },
  );
  return stdout;
}

/** The recording's frames as captured (time, tab, size), for a failure's message. */
async function capturedFrames(recordingId: string): Promise<string> {
  const lines = parseManifest(await readFile(blobFile(manifestKey(recordingId)), 'utf8').catch(() => ''));
  const frames = lines.flatMap((l) => (l.k === 'f' ? [`${l.t}ms ${l.target.slice(0, 6)} ${l.w}x${l.h}`] : []));
  return `${frames.length} frames: ${frames.slice(0, 12).join(', ')}${frames.length > 12 ? ', …' : ''}`;
}

/** The share of a frame's pixels near the page's colour, in its leftmost and rightmost columns and overall. */
function coverage(rgb: Buffer): { left: number; right: number; all: number } {
  const near = (i: number) => BACKGROUND.every((c, k) => Math.abs(rgb[i + k]! - c) <= 24);
  const share = (pixels: number[]) => pixels.filter((p) => near(p * 3)).length / pixels.length;
  const rows = Array.from({ length: 60 }, (_, y) => y);
  return { left: share(rows.map((y) => y * 80)), right: share(rows.map((y) => y * 80 + 79)), all: share(Array.from({ length: 80 * 60 }, (_, p) => p)) };
}

const providers = [
  { name: 'the pool', url: () => POOL_WS },
  { name: 'an address provider', url: () => browser.wsUrl },
];

for (const provider of providers) {
  test(
    `${provider.name}: a context with its own viewport records to an MP4 as long as the session (0.5%), the viewport's size, the page edge to edge`,
    { timeout: 120_000 },
    async () => {
      const user = await userWithProvider(`rec-viewport-${provider.name.split(' ').at(-1)}`, provider.url());
      const pw = await chromium.connectOverCDP(connectUrl(user.key, { session_record: 'true' }));
      const context = await pw.newContext({ viewport: VIEWPORT });
      const page = await context.newPage();
      await page.setContent(PAGE);
      // The page's own word on when it was first on screen: under load that is well after setContent.
      const drawnAt = await page.waitForFunction(() => (window as { paintedAt?: number }).paintedAt).then((h) => h.jsonValue() as Promise<number>);
      // The page's animation and its idle tail (nothing changes on screen, yet the video must keep it).
      await page.waitForFunction(() => document.title === 'done', undefined, { timeout: ANIMATE_MS + STILL_MS + 30_000 });
      const sessionId = await newestSessionId(user.workspaceId);
      await pw.close();

      const recording = await eventually(
        async () => {
          const r = await db.recording.findUnique({ where: { sessionLogId: sessionId } });
          if (r?.mp4Status === 'failed') throw new Error(`encoding failed: ${r.mp4Error}`);
          return r?.mp4Status === 'ready' ? r : null;
        },
        60_000,
        'the MP4',
      );
      const session = await db.sessionLog.findUniqueOrThrow({ where: { id: sessionId } });
      const file = blobFile(videoKey(recording.id));
      const { stdout } = await run('ffprobe', [
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-show_entries',
        'stream=width,height:format=duration',
        '-of',
        'json',
        file,
      ]);
      const probe = JSON.parse(stdout) as { streams: { width: number; height: number }[]; format: { duration: string } };
      const videoMs = Number(probe.format.duration) * 1000;
      assert.ok(Math.abs(videoMs - session.durationMs) <= session.durationMs * 0.005, `a ${videoMs} ms video for a ${session.durationMs} ms session`);
      assert.deepEqual({ width: probe.streams[0]!.width, height: probe.streams[0]!.height }, VIEWPORT);

      // The page fills the picture from the moment it was drawn (at its time in the session: nothing
      // shifted earlier or later), while it animates, in the idle tail, and in the last frame (two
      // frames before the end: a seek past the last frame's start finds none).
      const drawnMs = drawnAt - session.startedAt.getTime();
      // The moments are the page's own (its start can come late in a short session on a loaded
      // machine, after 40% of the video): drawn, animating, in its still tail, and the last frame.
      const lastMs = videoMs - 2 * SLOT_MS;
      for (const atMs of [drawnMs + 500, drawnMs + ANIMATE_MS / 2, drawnMs + ANIMATE_MS + STILL_MS / 2, lastMs].map((ms) => Math.min(ms, lastMs))) {
        const rgb = await frameAt(file, atMs / 1000);
        assert.equal(rgb.length, 80 * 60 * 3, `a frame at ${Math.round(atMs)} ms`);
        const seen = coverage(rgb);
        if (!(seen.left > 0.9 && seen.right > 0.9 && seen.all > 0.9)) {
          assert.fail(
            `at ${Math.round(atMs)} ms of the video (the page drawn at ${drawnMs} ms) the page is edge to edge: ${JSON.stringify(seen)}; ${await capturedFrames(recording.id)}`,
          );
        }
      }
    },
  );
}
