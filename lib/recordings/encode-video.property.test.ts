// The encoder on generated recordings: any sequence of frame sizes (tabs of different sizes, a
// resized viewport, a first paint smaller than the rest), gaps and tab switches. Every frame is a
// colour of its own, so a decoded frame of the video tells which source frame it shows and where
// it sits. Checked for each recording: ffprobe's length (within 0.5% of the session's), frame count
// and size; and at sampled slots, the frame the plan says that slot shows (video-timeline.ts, tested
// on its own), letterboxed into the video at its own aspect ratio with black bars.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { colourJpegs, framesAt, probeVideo, writeRecording, type TestFrame } from '../../e2e/support/recording-files';
import { FsBlobStore } from '../blobs/fs-store';
import { outputSize } from './encode-plan';
import { encodeRecording } from './encode-video';
import { manifestKey, parseManifest, videoKey } from './format';
import { SLOT_MS, Timeline } from './video-timeline';

// Fixed so the suite is deterministic; FC_SEED=<n> / FC_RUNS=<n> explore other recordings.
const SEED = Number(process.env.FC_SEED ?? 20_261_129);
const RUNS = Number(process.env.FC_RUNS ?? 5);

/** Viewports and first paints: landscape, portrait, square-ish, a narrow column, a wide strip. */
const SIZES = ['640x360', '480x360', '360x640', '285x360', '800x450', '320x240', '600x200'] as const;
/** 26 colours ({0, 128, 255} per channel, not black): a recording has at most 26 frames, each its own. */
const PALETTE = Array.from({ length: 27 }, (_, n) => [n % 3, Math.floor(n / 3) % 3, Math.floor(n / 9)].map((c) => Math.min(255, c * 128))).filter((rgb) =>
  rgb.some((c) => c > 0),
);
const hex = (rgb: number[]) => `0x${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

interface Tab {
  size: string;
  /** The tab's first frame, when its first paint had another size. */
  firstPaint: string | null;
  /** The size from the middle of its frames on (a resized viewport). */
  resizedTo: string | null;
}
interface Recording {
  tabs: Tab[];
  frames: { tab: number; gapMs: number }[];
  startMs: number;
  tailMs: number;
}

const sizeArb = fc.constantFrom(...SIZES);
const recordingArb: fc.Arbitrary<Recording> = fc.record({
  tabs: fc.array(fc.record({ size: sizeArb, firstPaint: fc.option(sizeArb), resizedTo: fc.option(sizeArb, { freq: 3 }) }), { minLength: 1, maxLength: 3 }),
  frames: fc.array(
    fc.record({
      tab: fc.nat({ max: 2 }),
      // Bursts (an animation), page-like changes and pauses.
      gapMs: fc.oneof(fc.integer({ min: 1, max: 120 }), fc.integer({ min: 120, max: 900 }), fc.integer({ min: 900, max: 2_500 })),
    }),
    { minLength: 3, maxLength: PALETTE.length },
  ),
  startMs: fc.integer({ min: 0, max: 600 }),
  tailMs: fc.integer({ min: 0, max: 2_500 }),
});

/** The case of the report: a first paint narrower than the rest, then an animated page. */
const FIRST_SMALL_PAINT: Recording = {
  tabs: [{ size: '640x360', firstPaint: '285x360', resizedTo: null }],
  frames: Array.from({ length: 26 }, (_, i) => ({ tab: 0, gapMs: i === 1 ? 700 : 40 + (i % 3) * 40 })),
  startMs: 120,
  tailMs: 1_800,
};

let root: string;
let store: FsBlobStore;
before(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'br-encode-prop-'));
  store = new FsBlobStore(path.join(root, 'blobs'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

const jpegCache = new Map<string, Promise<Buffer[]>>();
const jpegsOf = (size: string) => jpegCache.get(size) ?? jpegCache.set(size, colourJpegs(size, PALETTE.map(hex))).get(size)!;

/** The recording's frames and tab events, frame i in colour i. */
async function materialize(recording: Recording) {
  const frames: (TestFrame & { size: string })[] = [];
  const events: { t: number; target: string; event: 'opened' }[] = [];
  const seen = new Map<number, number>();
  const perTab = recording.frames.reduce(
    (counts, f) => counts.set(f.tab % recording.tabs.length, (counts.get(f.tab % recording.tabs.length) ?? 0) + 1),
    new Map<number, number>(),
  );
  let t = recording.startMs;
  for (const [i, f] of recording.frames.entries()) {
    const index = f.tab % recording.tabs.length;
    const tab = recording.tabs[index]!;
    const nth = seen.get(index) ?? 0;
    seen.set(index, nth + 1);
    const size = nth === 0 && tab.firstPaint ? tab.firstPaint : tab.resizedTo && nth >= perTab.get(index)! / 2 ? tab.resizedTo : tab.size;
    t += i === 0 ? 0 : f.gapMs;
    if (nth === 0) events.push({ t: Math.max(0, t - 1), target: `tab-${index}`, event: 'opened' });
    frames.push({ t, target: `tab-${index}`, size, jpeg: (await jpegsOf(size))[i]! });
  }
  // At least 4 s, so that a video rounded to whole 40 ms slots is still within 0.5% of the session.
  const sessionDurationMs = Math.max(4_000, t + recording.tailMs);
  return { frames, events, sessionDurationMs };
}

/** Where a frame of `fw`×`fh` lands in a `W`×`H` video (scaled to fit, aspect kept, centred). */
function placement(fw: number, fh: number, W: number, H: number) {
  const even = (n: number) => 2 * Math.floor(n / 2);
  const w = even(Math.min(W, Math.round((H * fw) / fh)));
  const h = even(Math.min(H, Math.round((W * fh) / fw)));
  return { x: even((W - w) / 2), y: even((H - h) / 2), w, h };
}

function pixel(rgb: Buffer, W: number, x: number, y: number): number[] {
  const at = (Math.round(y) * W + Math.round(x)) * 3;
  return [rgb[at]!, rgb[at + 1]!, rgb[at + 2]!];
}

const near = (a: number[], b: number[]) => a.every((c, k) => Math.abs(c - b[k]!) <= 48);

/** Checks one decoded frame: `colour` inside the frame's place (centre and near each edge), black in the bars. */
function checkFrame(rgb: Buffer, W: number, H: number, frame: { w: number; h: number; colour: number[] }, where: string) {
  const p = placement(frame.w, frame.h, W, H);
  const inset = 6;
  const inside: [number, number][] = [
    [p.x + p.w / 2, p.y + p.h / 2],
    [p.x + inset, p.y + p.h / 2],
    [p.x + p.w - 1 - inset, p.y + p.h / 2],
    [p.x + p.w / 2, p.y + inset],
    [p.x + p.w / 2, p.y + p.h - 1 - inset],
  ];
  for (const [x, y] of inside) {
    const got = pixel(rgb, W, x, y);
    assert.ok(
      near(got, frame.colour),
      `${where}: at (${x}, ${y}) inside the ${frame.w}×${frame.h} frame's place ${JSON.stringify(p)}, expected ${frame.colour}, got ${got}`,
    );
  }
  const bars: [number, number][] = [];
  if (p.x >= 8) bars.push([p.x / 2, H / 2], [W - 1 - p.x / 2, H / 2]);
  if (p.y >= 8) bars.push([W / 2, p.y / 2], [W / 2, H - 1 - p.y / 2]);
  for (const [x, y] of bars) {
    const got = pixel(rgb, W, x, y);
    assert.ok(
      near(got, [0, 0, 0]),
      `${where}: at (${x}, ${y}) in the bars around the ${frame.w}×${frame.h} frame's place ${JSON.stringify(p)}, expected black, got ${got}`,
    );
  }
}

/** The frame number each slot shows, as the plan has it. */
async function planOf(recordingId: string, totalSlots: number): Promise<number[]> {
  const lines = parseManifest((await store.get(manifestKey(recordingId)))!.toString('utf8'));
  const timeline = new Timeline<null>(totalSlots);
  const runs = [...lines.flatMap((line) => timeline.push(line, null)), ...timeline.finish()];
  return runs.flatMap((run) => Array<number>(run.slots).fill(run.frame.i));
}

/** Slots in the middle of each run of three or more (away from any change), at most `max`, spread out. */
function sampleSlots(shown: number[], max = 10): number[] {
  const middles: number[] = [];
  for (let start = 0; start < shown.length;) {
    let end = start;
    while (end + 1 < shown.length && shown[end + 1] === shown[start]) end++;
    if (end - start >= 2) middles.push(Math.floor((start + end) / 2));
    start = end + 1;
  }
  if (middles.length <= max) return middles;
  return Array.from({ length: max }, (_, k) => middles[Math.floor((k * middles.length) / max)]!);
}

let n = 0;
async function checkRecording(recording: Recording): Promise<void> {
  const id = `rec_prop${process.pid}x${n++}`;
  const { frames, events, sessionDurationMs } = await materialize(recording);
  await writeRecording(store, id, { frames, events, sessionDurationMs });
  const result = await encodeRecording(store, id);
  const sizes = new Map<string, number>();
  for (const f of frames) sizes.set(f.size, (sizes.get(f.size) ?? 0) + 1);
  const { width: W, height: H } = outputSize(sizes);
  const file = path.join(root, `${id}.mp4`);
  await writeFile(file, (await store.get(videoKey(id)))!);

  const probe = await probeVideo(file);
  const slots = Math.round(sessionDurationMs / SLOT_MS);
  assert.deepEqual([probe.width, probe.height, result.width, result.height], [W, H, W, H], 'the most common frame size');
  assert.ok(
    Math.abs(probe.durationS * 1000 - sessionDurationMs) <= sessionDurationMs * 0.005,
    `a ${probe.durationS} s video for a ${sessionDurationMs} ms session`,
  );
  assert.equal(probe.frames, slots, 'one frame per 40 ms of the session');
  assert.equal(result.videoFrames, probe.frames, 'the encoder reports the frames the file holds');

  const shown = await planOf(id, slots);
  assert.equal(shown.length, slots);
  const samples = sampleSlots(shown);
  const decoded = await framesAt(file, samples, W, H);
  samples.forEach((slot, k) => {
    const frame = frames[shown[slot]!]!;
    const [w, h] = frame.size.split('x').map(Number) as [number, number];
    checkFrame(decoded[k]!, W, H, { w, h, colour: PALETTE[shown[slot]!]! }, `slot ${slot} (${slot * SLOT_MS} ms) shows frame ${shown[slot]} of ${frame.t} ms`);
  });
  await rm(file);
}

test(
  'any sequence of frame sizes, gaps and tabs: the video lasts the session and shows each frame at its time, letterboxed',
  { timeout: 600_000 },
  async () => {
    await fc.assert(fc.asyncProperty(recordingArb, checkRecording), {
      seed: SEED,
      numRuns: RUNS,
      examples: process.env.FC_CASE ? [[JSON.parse(process.env.FC_CASE) as Recording]] : [[FIRST_SMALL_PAINT]],
      // Each run encodes a video: report the first failing recording rather than shrink it for minutes.
      endOnFailure: true,
    });
  },
);
