// The encoder on recordings written in the storage format with real JPEG frames, probed with
// ffprobe: length equal to the session's, constant frame rate, even dimensions, H.264 yuv420p,
// the index before the media (faststart); frames of two sizes; two tabs; nothing captured.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { colourAt, jpegFrames, probeVideo, writeRecording, type TestFrame } from '../../e2e/support/recording-files';
import { FsBlobStore } from '../blobs/fs-store';
import { encodeRecording, EncodeError, NO_FRAMES, removeStaleScratch } from './encode-video';
import { videoKey } from './format';
import { VIDEO_FPS } from './video-timeline';

let root: string;
let store: FsBlobStore;
before(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'br-encode-test-'));
  store = new FsBlobStore(path.join(root, 'blobs'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

let n = 0;
const newId = () => `rec_test${process.pid}x${n++}`;

async function videoFile(recordingId: string): Promise<string> {
  const file = path.join(root, `${recordingId}.mp4`);
  await writeFile(file, (await store.get(videoKey(recordingId)))!);
  return file;
}

function assertPlayable(probe: Awaited<ReturnType<typeof probeVideo>>, durationMs: number) {
  assert.equal(probe.codec, 'h264');
  assert.equal(probe.pixFmt, 'yuv420p');
  assert.equal(probe.width % 2, 0, 'even width');
  assert.equal(probe.height % 2, 0, 'even height');
  assert.equal(probe.rFrameRate, `${VIDEO_FPS}/1`);
  assert.equal(probe.avgFrameRate, `${VIDEO_FPS}/1`, 'constant frame rate');
  assert.ok(Math.abs(probe.durationS * 1000 - durationMs) <= durationMs * 0.005, `duration ${probe.durationS} s for a ${durationMs} ms session`);
  assert.equal(probe.frames, Math.round((durationMs / 1000) * VIDEO_FPS), 'one frame per slot of the session');
  assert.ok(probe.boxes.indexOf('moov') >= 0 && probe.boxes.indexOf('moov') < probe.boxes.indexOf('mdat'), `faststart: ${probe.boxes.join(' ')}`);
}

test('irregular frames and a long idle tail: the video lasts the whole session, at a constant rate', { timeout: 120_000 }, async () => {
  // At 640×360: the idle tail is what this test is about, and a quarter of 720p's pixels is a quarter of the encode.
  const jpegs = await jpegFrames(60, { size: '640x360' });
  // Bursts and gaps over the first 8 s, then nothing until the session ends at 90 s.
  let t = 180;
  const frames: TestFrame[] = jpegs.map((jpeg, i) => ({ jpeg, t: (t += i % 10 === 9 ? 900 : 37 + ((i * 53) % 90)) }));
  assert.ok(frames.at(-1)!.t < 10_000);
  const id = newId();
  await writeRecording(store, id, { frames, sessionDurationMs: 90_000, chunkBytes: 400_000 });
  const result = await encodeRecording(store, id);
  assert.equal(result.sourceFrames, 60);
  assert.equal(result.videoFrames, 90 * VIDEO_FPS);
  // 10 s of changes, then one clip of the last frame played over and over (and a rest shorter than a clip).
  assert.ok(result.encodedFrames < 30 * VIDEO_FPS, `the idle tail is a repeated clip (${result.encodedFrames} of ${result.videoFrames} frames encoded)`);
  assert.deepEqual([result.width, result.height], [640, 360]);
  const probe = await probeVideo(await videoFile(id));
  assertPlayable(probe, 90_000);
  assert.equal(result.sizeBytes, (await store.size(videoKey(id)))!);
});

test('more than 30 s of changes (frames whose times span several Matroska clusters): every slot in place', { timeout: 60_000 }, async () => {
  const jpegs = await jpegFrames(40, { size: '320x240' });
  const id = newId();
  await writeRecording(store, id, { frames: jpegs.map((jpeg, i) => ({ jpeg, t: i * 1_900 })), sessionDurationMs: 80_000 });
  const result = await encodeRecording(store, id);
  assert.equal(result.encodedFrames, 80 * VIDEO_FPS, 'no frame held 20 s: all encoded');
  assertPlayable(await probeVideo(await videoFile(id)), 80_000);
});

test('frames of two sizes: the common one is the video size, the other fitted in', { timeout: 60_000 }, async () => {
  const [big, small, odd] = await Promise.all([jpegFrames(20), jpegFrames(6, { size: '800x600' }), jpegFrames(2, { size: '641x479' })]);
  const jpegs = [...big.slice(0, 10), ...small, ...odd, ...big.slice(10)];
  const id = newId();
  await writeRecording(store, id, { frames: jpegs.map((jpeg, i) => ({ jpeg, t: i * 150 })), sessionDurationMs: 6_000 });
  const result = await encodeRecording(store, id);
  assert.deepEqual([result.width, result.height], [1280, 720]);
  const probe = await probeVideo(await videoFile(id));
  assertPlayable(probe, 6_000);
  assert.deepEqual([probe.width, probe.height], [1280, 720]);
});

test(
  'a size change followed by frames every 40 ms (a blank tab, then an animated one): no slot lost when the filters meet the new size',
  { timeout: 60_000 },
  async () => {
    // Seen in a real session: a rebuilt filter graph restarted the fps filter and a second of video went missing.
    const [blank, animated] = await Promise.all([jpegFrames(1, { size: '780x437' }), jpegFrames(182, { size: '780x493' })]);
    const id = newId();
    const frames = [
      { jpeg: blank[0]!, t: 120, target: 'T1' },
      ...animated.map((jpeg, i) => ({ jpeg, t: 1_000 + Math.round((i * 7_118) / 181), target: 'T2' })),
    ];
    await writeRecording(store, id, {
      frames,
      events: [
        { t: 61, target: 'T1', event: 'opened' },
        { t: 187, target: 'T2', event: 'opened' },
      ],
      sessionDurationMs: 8_234,
    });
    await encodeRecording(store, id);
    assertPlayable(await probeVideo(await videoFile(id)), 8_234);
  },
);

test('an odd, large viewport: scaled to even dimensions', { timeout: 60_000 }, async () => {
  const jpegs = await jpegFrames(3, { size: '2561x1441' });
  const id = newId();
  await writeRecording(store, id, { frames: jpegs.map((jpeg, i) => ({ jpeg, t: i * 400 })), sessionDurationMs: 2_000 });
  const result = await encodeRecording(store, id);
  assert.ok(result.width <= 1920 && result.width % 2 === 0 && result.height % 2 === 0, `${result.width}x${result.height}`);
  assertPlayable(await probeVideo(await videoFile(id)), 2_000);
});

test('two tabs: one video that follows the tab that changed last', { timeout: 60_000 }, async () => {
  const [red, blue, green] = await Promise.all([
    jpegFrames(1, { source: 'color=c=red' }),
    jpegFrames(1, { source: 'color=c=blue' }),
    jpegFrames(1, { source: 'color=c=0x00ff00' }),
  ]);
  const id = newId();
  await writeRecording(store, id, {
    frames: [
      { t: 100, target: 'tab-a', jpeg: red[0]! },
      { t: 3_000, target: 'tab-b', jpeg: blue[0]! },
      { t: 6_000, target: 'tab-a', jpeg: green[0]! },
    ],
    events: [{ t: 2_900, target: 'tab-b', event: 'opened' }],
    sessionDurationMs: 9_000,
  });
  await encodeRecording(store, id);
  const file = await videoFile(id);
  assertPlayable(await probeVideo(file), 9_000);
  const dominant = (rgb: number[]) => ['red', 'green', 'blue'][rgb.indexOf(Math.max(...rgb))];
  assert.equal(dominant(await colourAt(file, 1)), 'red', 'tab a first');
  assert.equal(dominant(await colourAt(file, 4.5)), 'blue', 'then tab b, which changed');
  assert.equal(dominant(await colourAt(file, 8)), 'green', 'then tab a again');
});

test('an orphaned recording (no complete.json): as long as the session the caller knows of', { timeout: 60_000 }, async () => {
  const jpegs = await jpegFrames(5);
  const id = newId();
  await writeRecording(store, id, { frames: jpegs.map((jpeg, i) => ({ jpeg, t: i * 300 })), sessionDurationMs: 4_000, complete: false });
  await encodeRecording(store, id, { sessionDurationMs: 4_000 });
  assertPlayable(await probeVideo(await videoFile(id)), 4_000);
});

test('no frames captured: a clear, permanent error and no video', { timeout: 30_000 }, async () => {
  const id = newId();
  await writeRecording(store, id, { frames: [], events: [{ t: 0, target: 'tab-1', event: 'opened' }], sessionDurationMs: 5_000 });
  await assert.rejects(encodeRecording(store, id), (error: unknown) => error instanceof EncodeError && error.message === NO_FRAMES && error.permanent);
  const missing = newId();
  await assert.rejects(encodeRecording(store, missing), (error: unknown) => error instanceof EncodeError && error.message === NO_FRAMES);
  assert.equal(await store.size(videoKey(id)), null);
});

test('an abort stops the encode at once', { timeout: 60_000 }, async () => {
  const jpegs = await jpegFrames(30);
  const id = newId();
  await writeRecording(store, id, { frames: jpegs.map((jpeg, i) => ({ jpeg, t: i * 600 })), sessionDurationMs: 120_000 });
  // Aborted once the encode is under way: when its scratch directory appears.
  const tmpDir = await mkdtemp(path.join(root, 'abort-'));
  const controller = new AbortController();
  const watcher = watch(tmpDir, () => controller.abort(new Error('stopping')));
  let started = 0;
  controller.signal.addEventListener('abort', () => (started = Date.now()));
  try {
    await assert.rejects(encodeRecording(store, id, { signal: controller.signal, tmpDir }), /stopping/);
  } finally {
    watcher.close();
  }
  assert.ok(started > 0 && Date.now() - started < 5_000, 'stopped within seconds of the abort');
  assert.equal(await store.size(videoKey(id)), null);
  assert.deepEqual(await readdir(tmpDir), [], 'its scratch directory removed');
});

test('scratch directories of encoders that died are removed; a live process keeps its own', async () => {
  const dir = await mkdtemp(path.join(root, 'tmp-'));
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  await mkdir(path.join(dir, `br-encode-${dead}-abc`));
  await mkdir(path.join(dir, `br-encode-${process.pid}-def`));
  await mkdir(path.join(dir, 'something-else'));
  assert.equal(await removeStaleScratch(dir), 1);
  assert.deepEqual((await readdir(dir)).sort(), [`br-encode-${process.pid}-def`, 'something-else']);
});
