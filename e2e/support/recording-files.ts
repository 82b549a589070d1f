// Recordings made without a browser, for the encoder's and the jobs' tests (and bench/recordings):
// real JPEG frames from ffmpeg's test sources, written in the storage format of
// lib/recordings/format.ts (chunks of length-prefixed frames, manifest.ndjson, complete.json), and
// ffprobe's view of a video.
import { execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { BlobStore } from '../../lib/blobs';
import { chunkKey, completeKey, FRAME_PREFIX_BYTES, manifestKey, type CompleteSummary, type ManifestLine } from '../../lib/recordings/format';

/**
 * `count` JPEGs of an ffmpeg test source (`testsrc2`: every frame differs, the worst case for the
 * encoder; `color=red`: one colour) at `size`.
 */
export async function jpegFrames(count: number, options: { size?: string; source?: string; quality?: number } = {}): Promise<Buffer[]> {
  const size = options.size ?? '1280x720';
  const source = options.source ?? 'testsrc2';
  const input = source.includes('=') ? `${source}:s=${size}:r=10` : `${source}=size=${size}:rate=10`;
  return mjpegOf(input, count, options.quality ?? 5);
}

/** One JPEG of one colour each (`0xRRGGBB`), all at `size`, from one ffmpeg. */
export async function colourJpegs(size: string, colours: string[]): Promise<Buffer[]> {
  const sources = colours.map((colour, i) => `color=c=${colour}:s=${size}:r=1:d=1[c${i}]`);
  const input = `${sources.join(';')};${colours.map((_, i) => `[c${i}]`).join('')}concat=n=${colours.length}:v=1:a=0,settb=1,setpts=N[out0]`;
  return mjpegOf(input, colours.length, 3);
}

async function mjpegOf(input: string, count: number, quality: number): Promise<Buffer[]> {
  const child = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      input,
      '-frames:v',
      String(count),
      '-c:v',
      'mjpeg',
      '-q:v',
      String(quality),
      '-f',
      'image2pipe',
      'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const out: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => out.push(data));
  child.stderr.on('data', (data: Buffer) => (stderr += data));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`ffmpeg could not make test frames: ${stderr}`);
  const frames = splitJpegs(Buffer.concat(out));
  if (frames.length !== count) throw new Error(`expected ${count} frames, got ${frames.length}`);
  return frames;
}

/** Splits concatenated JPEGs at their end-of-image markers (ffmpeg's MJPEG has no embedded thumbnails). */
export function splitJpegs(stream: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  let start = 0;
  for (let i = 2; i < stream.length - 1; i++) {
    if (stream[i] === 0xff && stream[i + 1] === 0xd9) {
      frames.push(stream.subarray(start, i + 2));
      start = i + 2;
      i++;
    }
  }
  return frames;
}

export interface TestFrame {
  t: number;
  jpeg: Buffer;
  target?: string;
  w?: number;
  h?: number;
}

export interface TestRecording {
  frames: TestFrame[];
  /** Tab events (opened/closed) besides the frames, by time. */
  events?: { t: number; target: string; event: 'opened' | 'changed' | 'closed' }[];
  sessionDurationMs: number;
  /** Roll chunks over at this size (the capture's is 8 MB). */
  chunkBytes?: number;
  /** false: no complete.json (an orphaned recording). */
  complete?: boolean;
}

/** Writes the recording's chunks, manifest and (unless told not to) complete.json. */
export async function writeRecording(store: BlobStore, recordingId: string, recording: TestRecording): Promise<CompleteSummary> {
  const chunkBytes = recording.chunkBytes ?? 8 * 1024 * 1024;
  const lines: ManifestLine[] = [];
  const events = [...(recording.events ?? [])];
  let chunk = 0;
  let parts: Buffer[] = [];
  let at = 0;
  const flush = async () => {
    if (parts.length === 0) return;
    await store.put(chunkKey(recordingId, chunk), Buffer.concat(parts));
    parts = [];
    at = 0;
    chunk++;
  };
  const size = (jpeg: Buffer) => ({ w: jpeg.readUInt16BE(sofOffset(jpeg) + 7), h: jpeg.readUInt16BE(sofOffset(jpeg) + 5) });
  for (const [i, frame] of recording.frames.entries()) {
    while (events.length > 0 && events[0]!.t <= frame.t) lines.push({ k: 't', ...events.shift()! });
    if (at > 0 && at + FRAME_PREFIX_BYTES + frame.jpeg.length > chunkBytes) await flush();
    const prefix = Buffer.alloc(FRAME_PREFIX_BYTES);
    prefix.writeUInt32BE(frame.jpeg.length);
    parts.push(prefix, frame.jpeg);
    const { w, h } = frame.w && frame.h ? { w: frame.w, h: frame.h } : size(frame.jpeg);
    lines.push({ k: 'f', i, t: frame.t, target: frame.target ?? 'tab-1', chunk, offset: at + FRAME_PREFIX_BYTES, length: frame.jpeg.length, w, h });
    at += FRAME_PREFIX_BYTES + frame.jpeg.length;
  }
  for (const event of events) lines.push({ k: 't', ...event });
  const chunkCount = parts.length > 0 ? chunk + 1 : chunk;
  await flush();
  await store.put(manifestKey(recordingId), lines.map((line) => JSON.stringify(line) + '\n').join(''));
  const summary: CompleteSummary = {
    recordingId,
    sessionId: `session-of-${recordingId}`,
    startedAt: new Date(Date.now() - recording.sessionDurationMs).toISOString(),
    endedAt: new Date().toISOString(),
    durationMs: recording.sessionDurationMs,
    sessionDurationMs: recording.sessionDurationMs,
    frameCount: recording.frames.length,
    chunkCount,
    sizeBytes: recording.frames.reduce((n, f) => n + FRAME_PREFIX_BYTES + f.jpeg.length, 0),
    droppedFrames: 0,
    duplicatesSkipped: 0,
    capStopped: false,
    truncated: null,
    targets: [...new Set(recording.frames.map((f) => f.target ?? 'tab-1'))].map((targetId) => ({
      targetId,
      url: 'about:test',
      title: 'test',
      frameCount: recording.frames.filter((f) => (f.target ?? 'tab-1') === targetId).length,
    })),
  };
  if (recording.complete !== false) await store.put(completeKey(recordingId), JSON.stringify(summary));
  return summary;
}

/** Where a baseline or progressive JPEG's frame header (SOF0/SOF2) starts. */
function sofOffset(jpeg: Buffer): number {
  let offset = 2;
  while (offset + 9 < jpeg.length) {
    const marker = jpeg[offset + 1]!;
    if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) return offset;
    offset += 2 + jpeg.readUInt16BE(offset + 2);
  }
  throw new Error('no JPEG frame header');
}

export interface Probe {
  codec: string;
  pixFmt: string;
  width: number;
  height: number;
  rFrameRate: string;
  avgFrameRate: string;
  frames: number;
  durationS: number;
  /** The top-level MP4 boxes in file order (faststart: moov before mdat). */
  boxes: string[];
}

/** ffprobe's view of an MP4 file, frames counted by decoding. */
export async function probeVideo(file: string): Promise<Probe> {
  const { stdout } = await promisify(execFile)('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=codec_name,pix_fmt,width,height,r_frame_rate,avg_frame_rate,nb_read_frames:format=duration',
    '-of',
    'json',
    file,
  ]);
  const json = JSON.parse(stdout) as { streams: Record<string, string | number>[]; format: { duration: string } };
  const s = json.streams[0]!;
  return {
    codec: String(s.codec_name),
    pixFmt: String(s.pix_fmt),
    width: Number(s.width),
    height: Number(s.height),
    rFrameRate: String(s.r_frame_rate),
    avgFrameRate: String(s.avg_frame_rate),
    frames: Number(s.nb_read_frames),
    durationS: Number(json.format.duration),
    boxes: topLevelBoxes(await readFile(file)),
  };
}

function topLevelBoxes(mp4: Buffer): string[] {
  const boxes: string[] = [];
  for (let at = 0; at + 8 <= mp4.length;) {
    let size = mp4.readUInt32BE(at);
    const type = mp4.toString('latin1', at + 4, at + 8);
    if (size === 1) size = Number(mp4.readBigUInt64BE(at + 8));
    if (size === 0) size = mp4.length - at;
    boxes.push(type);
    if (size < 8) break;
    at += size;
  }
  return boxes;
}

/** The average colour of the video's frame at `seconds`, as [r, g, b]. */
export async function colourAt(file: string, seconds: number): Promise<[number, number, number]> {
  const { stdout } = await promisify(execFile)(
    'ffmpeg',
    ['-v', 'error', '-ss', seconds.toFixed(3), '-i', file, '-frames:v', '1', '-vf', 'scale=1:1:flags=area', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    { encoding: 'buffer' },
  );
  return [stdout[0]!, stdout[1]!, stdout[2]!];
}

/** The video's frames number `numbers` (ascending, from 0), decoded at its size as RGB (3 bytes a pixel). */
export async function framesAt(file: string, numbers: number[], width: number, height: number): Promise<Buffer[]> {
  const select = numbers.map((n) => `eq(n,${n})`).join('+');
  const { stdout } = await promisify(execFile)(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-vf', `select='${select}'`, '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 1 << 30 },
  );
  const size = width * height * 3;
  if (stdout.length !== size * numbers.length) throw new Error(`decoded ${stdout.length / size} of ${numbers.length} frames`);
  return numbers.map((_, k) => stdout.subarray(k * size, (k + 1) * size));
}
