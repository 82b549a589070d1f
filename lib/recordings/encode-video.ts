// The MP4 of a recording (docs/recordings.md, "Encoding"): H.264, yuv420p, even dimensions, a
// constant VIDEO_FPS and `faststart`, exactly as long as the session. Three passes over the
// manifest, never the whole recording in memory: a scan (frame sizes, frames whose bytes are
// missing), a plan (video-timeline.ts: which frame each slot shows, which held frames become
// repeated clips), both in encode-plan.ts, then the encode, which reads the chunks in order and
// streams each frame once, with its time, to ffmpeg. ffmpeg cuts its output where the plan says;
// a second ffmpeg joins the pieces, the clips repeated, without re-encoding. ffmpeg comes from PATH.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { BlobStore } from '../blobs';
import { EncodeError, runFfmpeg, runFfmpegPipeline, type FfmpegRun } from './ffmpeg';
import { ChunkReader, copyToBlob } from './encode-io';
import { MjpegMatroska } from './mjpeg-matroska';
import { frameLines, manifestLines, outputSize, planSegments, scanFrames, sessionDurationOf, type Scan } from './encode-plan';
import { videoKey } from './format';
import { cutFrames, SLOT_MS, splitRun, Timeline, VIDEO_FPS, type Segment } from './video-timeline';

/** x264's speed/size trade-off: a 1-minute 1280×720 recording encodes well within 15 s on two cores. */
const PRESET = 'veryfast';

export { EncodeError };

export const NO_FRAMES = 'no frames were captured: the pages never painted';

export interface EncodeOptions {
  signal?: AbortSignal;
  /** The session's length when the recording has no complete.json (an orphan); else the last frame's time. */
  sessionDurationMs?: number;
  /** Where the pieces are made (default: the system's temporary directory). */
  tmpDir?: string;
}

export interface EncodeResult {
  /** The MP4 as stored under videoKey. */
  sizeBytes: number;
  durationMs: number;
  width: number;
  height: number;
  fps: number;
  /** Frames in the manifest that had their bytes, frames of the video, and frames x264 encoded (the rest are repeats). */
  sourceFrames: number;
  videoFrames: number;
  encodedFrames: number;
  segments: number;
  /** Wall time of each step, milliseconds. */
  timings: { scanMs: number; encodeMs: number; joinMs: number; storeMs: number; totalMs: number };
}

/** Scratch directories are named after the process, so one left by a killed worker can be told apart. */
const SCRATCH_PREFIX = 'br-encode-';

/** Removes the scratch directories of encoders whose process is gone (killed mid-encode). */
export async function removeStaleScratch(tmpDir = os.tmpdir()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(tmpDir).catch(() => [] as string[])) {
    const pid = Number(/^br-encode-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || isAlive(pid)) continue;
    await rm(path.join(tmpDir, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Encodes the recording's frames into its video.mp4 in the store. */
export async function encodeRecording(store: BlobStore, recordingId: string, options: EncodeOptions = {}): Promise<EncodeResult> {
  const started = Date.now();
  const signal = options.signal ?? new AbortController().signal;
  signal.throwIfAborted();
  const scan = await scanFrames(store, recordingId);
  if (scan.frames === 0) throw new EncodeError(NO_FRAMES, true);
  const durationMs = (await sessionDurationOf(store, recordingId)) ?? options.sessionDurationMs ?? scan.lastT + SLOT_MS;
  const totalSlots = Math.max(1, Math.round(durationMs / SLOT_MS));
  const { width, height } = outputSize(scan.sizes);
  const segments = await planSegments(store, recordingId, scan, totalSlots);
  const scanned = Date.now();

  const dir = await mkdtemp(path.join(options.tmpDir ?? os.tmpdir(), `${SCRATCH_PREFIX}${process.pid}-`));
  try {
    signal.throwIfAborted();
    const encoded = await encodeSegments(store, recordingId, { scan, totalSlots, segments, width, height, dir, signal });
    const encodedAt = Date.now();
    const file = await joinSegments(dir, segments, signal);
    const joined = Date.now();
    signal.throwIfAborted();
    const sizeBytes = await copyToBlob(store, videoKey(recordingId), file);
    const done = Date.now();
    return {
      sizeBytes,
      durationMs: Math.round(totalSlots * SLOT_MS),
      width,
      height,
      fps: VIDEO_FPS,
      sourceFrames: scan.frames,
      videoFrames: totalSlots,
      encodedFrames: encoded,
      segments: segments.length,
      timings: { scanMs: scanned - started, encodeMs: encodedAt - scanned, joinMs: joined - encodedAt, storeMs: done - joined, totalMs: done - started },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface EncodeInput {
  scan: Scan;
  totalSlots: number;
  segments: Segment[];
  width: number;
  height: number;
  dir: string;
  signal: AbortSignal;
}

/**
 * Pass three: each run's JPEG to ffmpeg once, at the time it first shows (mjpeg-matroska.ts), for
 * as many slots as the plan encodes of it; ffmpeg writes the segments as seg000000.ts, ... Returns
 * the frames encoded.
 */
async function encodeSegments(store: BlobStore, recordingId: string, input: EncodeInput): Promise<number> {
  const { width: w, height: h, segments } = input;
  const expected = segments.reduce((n, s) => n + s.frames, 0);
  const ffmpeg = runFfmpegPipeline(fitArgs(w, h), x264Args(input, expected), { signal: input.signal, hide: input.dir });
  const mkv = new MjpegMatroska({ width: w, height: h });
  let at: number;
  try {
    at = await streamFrames(store, recordingId, input, mkv, ffmpeg);
  } catch (error) {
    ffmpeg.kill();
    await ffmpeg.done.catch(() => {});
    throw error;
  }
  await ffmpeg.done;
  const files = (await readdir(input.dir)).filter((name) => name.startsWith('seg'));
  if (at !== expected || files.length !== segments.length) {
    throw new EncodeError(`the encoder made ${files.length} pieces of ${segments.length} (${at} frames of ${expected})`);
  }
  return at;
}

/** The first ffmpeg's arguments: the JPEGs of the Matroska stream in, raw frames of the video's size out. */
function fitArgs(w: number, h: number): string[] {
  return [
    // Each frame fitted into the video's size, its aspect ratio kept, and padded; the JPEGs'
    // full range becomes video range. A frame of another size rebuilds this ffmpeg's filters
    // (so it is scaled by its own size), which is safe here: none of them holds a frame back.
    '-f',
    'matroska',
    '-i',
    'pipe:0',
    '-vf',
    `scale=${w}:${h}:force_original_aspect_ratio=decrease:force_divisible_by=2,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2,setsar=1,format=yuv420p`,
    '-fps_mode',
    'passthrough',
    '-c:v',
    'rawvideo',
    '-f',
    'nut',
    'pipe:1',
  ];
}

/** The second ffmpeg's arguments: `expected` frames at VIDEO_FPS through x264, cut into segments where the plan says. */
function x264Args(input: EncodeInput, expected: number): string[] {
  const cuts = cutFrames(input.segments);
  const split =
    cuts.length > 0
      ? ['-force_key_frames', cuts.map((n) => (n / VIDEO_FPS).toFixed(3)).join(','), '-segment_frames', cuts.join(',')]
      : ['-segment_time', '1000000'];
  return [
    // Every frame is now the video's size, so these filters are never rebuilt: the fps filter
    // repeats each frame for its slots (a rebuild would restart it and lose the frame it holds).
    '-f',
    'nut',
    '-i',
    'pipe:0',
    '-vf',
    `fps=${VIDEO_FPS}`,
    '-frames:v',
    String(expected),
    '-c:v',
    'libx264',
    '-preset',
    PRESET,
    '-pix_fmt',
    'yuv420p',
    '-g',
    String(10 * VIDEO_FPS),
    ...split,
    '-f',
    'segment',
    '-segment_format',
    'mpegts',
    path.join(input.dir, 'seg%06d.ts'),
  ];
}

/** Reads the manifest and its chunks in order and writes each run's frame to ffmpeg once; returns the slots written. */
async function streamFrames(store: BlobStore, recordingId: string, input: EncodeInput, mkv: MjpegMatroska, ffmpeg: FfmpegRun): Promise<number> {
  let at = 0;
  let last: Buffer | null = null;
  const chunks = new ChunkReader(store, recordingId);
  const timeline = new Timeline<Buffer | null>(input.totalSlots);
  const write = async (runs: { payload: Buffer | null; slots: number }[]) => {
    for (const run of runs) {
      const { hold, rest } = splitRun(run.slots);
      for (const data of mkv.frame(at * SLOT_MS, run.payload!)) await writeTo(ffmpeg, data);
      at += (hold?.clip ?? 0) + rest;
      last = run.payload;
    }
  };
  for await (const line of frameLines(input.scan, manifestLines(store, recordingId))) {
    await write(timeline.push(line, line.k === 'f' ? await chunks.frame(line) : null));
  }
  await write(timeline.finish());
  // Where the last frame ends: the fps filter repeats it up to there (ffmpeg stops before this one).
  for (const data of mkv.frame(at * SLOT_MS, last!)) await writeTo(ffmpeg, data);
  ffmpeg.stdin!.end();
  return at;
}

async function writeTo(ffmpeg: FfmpegRun, data: Buffer): Promise<void> {
  const stdin = ffmpeg.stdin as Writable;
  if (stdin.write(data)) return;
  // ffmpeg's exit (an error, an abort) also ends the wait, with its reason.
  await Promise.race([new Promise((resolve) => stdin.once('drain', resolve)), ffmpeg.done]);
}

/** The segments in order, each repeated as planned, into one MP4 with its index first; no re-encode. */
async function joinSegments(dir: string, segments: Segment[], signal: AbortSignal): Promise<string> {
  const lines = ['ffconcat version 1.0'];
  segments.forEach((segment, k) => {
    for (let r = 0; r < segment.reps; r++) lines.push(`file 'seg${String(k).padStart(6, '0')}.ts'`, `duration ${(segment.frames / VIDEO_FPS).toFixed(3)}`);
  });
  const list = path.join(dir, 'segments.ffconcat');
  await writeFile(list, lines.join('\n') + '\n');
  const out = path.join(dir, 'video.mp4');
  await runFfmpeg(['-nostdin', '-f', 'concat', '-i', list, '-c', 'copy', '-movflags', '+faststart', out], { signal, hide: dir }).done;
  return out;
}
