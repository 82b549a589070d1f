// The encoder's first two passes over a recording's manifest (encode-video.ts): the scan (frame
// sizes, frames whose bytes are missing, the session's length, the video's size) and the plan
// (video-timeline.ts: which frame each slot shows, which held frames become repeated clips); and
// the manifest's lines, which the encode reads again in its third pass.
import { createInterface } from 'node:readline';
import type { BlobStore } from '../blobs';
import { chunkKey, completeKey, manifestKey, type CompleteSummary, type ManifestLine } from './format';
import { SegmentPlan, Timeline, type Segment } from './video-timeline';

/** The longer side of the video at most (a larger viewport is scaled down). */
const MAX_SIDE = 1920;

export interface Scan {
  frames: number;
  lastT: number;
  /** Frames per `w×h`. */
  sizes: Map<string, number>;
  /** Frames whose bytes are not (all) in their chunk: left out of the video. */
  missing: Set<number>;
}

/** The manifest's lines in order (none when it is missing). */
export async function* manifestLines(store: BlobStore, recordingId: string): AsyncGenerator<ManifestLine> {
  if ((await store.size(manifestKey(recordingId))) === null) return;
  const lines = createInterface({ input: await store.read(manifestKey(recordingId)), crlfDelay: Infinity });
  for await (const text of lines) {
    if (!text) continue;
    try {
      yield JSON.parse(text) as ManifestLine;
    } catch {
      // the partial last line of a recording that never finished
    }
  }
}

export async function scanFrames(store: BlobStore, recordingId: string): Promise<Scan> {
  const chunkSizes = new Map<number, number | null>();
  const scan: Scan = { frames: 0, lastT: 0, sizes: new Map(), missing: new Set() };
  for await (const line of manifestLines(store, recordingId)) {
    scan.lastT = Math.max(scan.lastT, line.t);
    if (line.k !== 'f') continue;
    if (!chunkSizes.has(line.chunk)) chunkSizes.set(line.chunk, await store.size(chunkKey(recordingId, line.chunk)));
    const size = chunkSizes.get(line.chunk);
    if (size == null || line.length <= 0 || line.offset + line.length > size) {
      scan.missing.add(line.i);
      continue;
    }
    scan.frames++;
    if (line.w > 0 && line.h > 0) scan.sizes.set(`${line.w}x${line.h}`, (scan.sizes.get(`${line.w}x${line.h}`) ?? 0) + 1);
  }
  return scan;
}

export async function sessionDurationOf(store: BlobStore, recordingId: string): Promise<number | null> {
  const text = await store.get(completeKey(recordingId));
  if (!text) return null;
  try {
    const ms = (JSON.parse(text.toString('utf8')) as CompleteSummary).sessionDurationMs;
    return Number.isFinite(ms) && ms > 0 ? ms : null;
  } catch {
    return null;
  }
}

/** The most common frame size, scaled down to MAX_SIDE, even. */
export function outputSize(sizes: Map<string, number>): { width: number; height: number } {
  let best = '1280x720';
  let count = 0;
  for (const [size, n] of sizes) {
    if (n > count) [best, count] = [size, n];
  }
  const [w, h] = best.split('x').map(Number) as [number, number];
  const scale = Math.min(1, MAX_SIDE / Math.max(w, h));
  const even = (n: number) => Math.max(2, 2 * Math.floor((n * scale) / 2));
  return { width: even(w), height: even(h) };
}

/** The lines without the frames the scan found missing. */
export const frameLines = (scan: Scan, lines: AsyncGenerator<ManifestLine>) =>
  (async function* () {
    for await (const line of lines) if (line.k !== 'f' || !scan.missing.has(line.i)) yield line;
  })();

export async function planSegments(store: BlobStore, recordingId: string, scan: Scan, totalSlots: number): Promise<Segment[]> {
  const timeline = new Timeline<null>(totalSlots);
  const plan = new SegmentPlan();
  for await (const line of frameLines(scan, manifestLines(store, recordingId))) for (const run of timeline.push(line, null)) plan.add(run.slots);
  for (const run of timeline.finish()) plan.add(run.slots);
  return plan.close();
}
