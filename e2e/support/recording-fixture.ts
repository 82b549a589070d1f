// Recordings as the capture leaves them, for the recordings API tests (e2e/api/recordings*.test.ts):
// a session row, a recording row, and blobs in the storage layout of lib/recordings/format.ts under
// the stack's DATA_DIR, with real JPEG frames and a real MP4 made by ffmpeg.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { blobs } from '../../lib/blobs';
import { db } from '../../lib/db';
import { chunkKey, completeKey, manifestKey, videoKey, type CompleteSummary, type ManifestLine } from '../../lib/recordings/format';
import { WEB, type TestUser } from './api';
import { seedRecording, seedSession } from './seed';
export const as = (user: TestUser, workspaceId?: string) => ({
  auth: { token: user.token },
  ...(workspaceId ? { headers: { 'x-workspace-id': workspaceId } } : {}),
});

function ffmpeg(args: string[]): Buffer {
  return execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', ...args], { maxBuffer: 64 * 1024 * 1024 });
}

const jpeg = (size: string, at: number) =>
  ffmpeg(['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=10`, '-ss', String(at), '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'mjpeg', '-']);
export const FRAMES = { a0: jpeg('64x48', 0), a1: jpeg('64x48', 0.5), b0: jpeg('32x24', 0.2) };
/** A real H.264 MP4 as the encoder makes them (faststart needs a file to seek in), large enough for ranges anywhere in it. */
function makeMp4(): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rec-mp4-'));
  try {
    const file = path.join(dir, 'video.mp4');
    ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10', '-t', '2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', file]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
export const MP4 = makeMp4();

const prefixed = (frame: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(frame.length);
  return Buffer.concat([length, frame]);
};
export const CHUNKS = [Buffer.concat([prefixed(FRAMES.a0), prefixed(FRAMES.a1)]), prefixed(FRAMES.b0)];
export const OFFSETS = { a0: 4, a1: 4 + FRAMES.a0.length + 4, b0: 4 };

/** Two tabs: A with two frames in chunk 0, then B (opened blank, navigated) with one frame in chunk 1, closed. */
export const MANIFEST: ManifestLine[] = [
  { k: 't', t: 0, target: 'TARGET-A', event: 'opened', url: 'https://a.example.test/', title: 'Page A' },
  { k: 'f', i: 0, t: 120, target: 'TARGET-A', chunk: 0, offset: OFFSETS.a0, length: FRAMES.a0.length, w: 64, h: 48 },
  { k: 'f', i: 1, t: 560, target: 'TARGET-A', chunk: 0, offset: OFFSETS.a1, length: FRAMES.a1.length, w: 64, h: 48 },
  { k: 't', t: 700, target: 'TARGET-B', event: 'opened', url: 'about:blank', title: '' },
  { k: 't', t: 750, target: 'TARGET-B', event: 'changed', url: 'https://b.example.test/x', title: 'Page B' },
  { k: 'f', i: 2, t: 900, target: 'TARGET-B', chunk: 1, offset: OFFSETS.b0, length: FRAMES.b0.length, w: 32, h: 24 },
  { k: 't', t: 1_500, target: 'TARGET-B', event: 'closed' },
];
export const FRAME_BYTES = CHUNKS[0]!.length + CHUNKS[1]!.length;

export interface FixtureOptions {
  /** `ended` (default): five minutes ago; `just-ended`: a second ago (the capture may still be finishing); `active`: still running. */
  session?: 'active' | 'ended' | 'just-ended';
  complete?: boolean;
  startedAt?: Date;
  routerId?: string;
  mp4Status?: 'queued' | 'running' | 'ready' | 'failed' | null;
  /** Write video.mp4 (with mp4Status `ready`). */
  video?: boolean;
  /** Write no blobs at all (a row the capture never wrote anything for). */
  noBlobs?: boolean;
}

export interface Fixture {
  id: string;
  sessionId: string;
  startedAt: Date;
}

export async function recordingFixture(user: TestUser, options: FixtureOptions = {}): Promise<Fixture> {
  const state = options.session ?? 'ended';
  const complete = options.complete ?? state !== 'active';
  const startedAt = options.startedAt ?? new Date(Date.now() - 10 * 60_000);
  // An ended session lasted 3 s (a short video when the stack's worker encodes it), long enough ago to be past the capture's grace.
  const endedAt = state === 'active' ? null : state === 'just-ended' ? new Date(Date.now() - 1_000) : new Date(startedAt.getTime() + 3_000);
  const routerId = options.routerId ?? user.routerId;
  const session = await seedSession(user.workspaceId, routerId, {
    providerSlug: 'fixture',
    providerName: 'Fixture',
    state: state === 'active' ? 'active' : 'closed',
    startedAt,
    endedAt,
    durationMs: endedAt ? endedAt.getTime() - startedAt.getTime() : 0,
  });
  const mp4Status = options.video ? 'ready' : (options.mp4Status ?? null);
  const recording = await seedRecording(session, {
    endedAt: complete ? endedAt : null,
    durationMs: complete ? 1_500 : 0,
    frameCount: complete ? 3 : 0,
    chunkCount: complete ? 2 : 0,
    sizeBytes: BigInt(complete ? FRAME_BYTES : 0),
    duplicatesSkipped: complete ? 4 : 0,
    complete,
    mp4Status,
    // As the capture names it from the manifest's tabs below: Page A's title, two pages.
    title: complete ? 'Page A' : null,
    pageCount: complete ? 2 : 0,
    mp4SizeBytes: BigInt(options.video ? MP4.length : 0),
    mp4ReadyAt: options.video ? new Date() : null,
  });
  if (!options.noBlobs) {
    await blobs().put(chunkKey(recording.id, 0), CHUNKS[0]!);
    await blobs().put(chunkKey(recording.id, 1), CHUNKS[1]!);
    // A recording being written may end its manifest mid-line.
    await blobs().put(manifestKey(recording.id), MANIFEST.map((l) => JSON.stringify(l)).join('\n') + (complete ? '\n' : '\n{"k":"f","i":3,"t":9'));
    if (complete) await blobs().put(completeKey(recording.id), JSON.stringify(summaryOf(recording.id, session.id, startedAt, endedAt!)));
    if (options.video) await blobs().put(videoKey(recording.id), MP4);
  }
  return { id: recording.id, sessionId: session.id, startedAt };
}

export function summaryOf(recordingId: string, sessionId: string, startedAt: Date, endedAt: Date): CompleteSummary {
  return {
    recordingId,
    sessionId,
    startedAt: startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    durationMs: 1_500,
    sessionDurationMs: endedAt.getTime() - startedAt.getTime(),
    frameCount: 3,
    chunkCount: 2,
    sizeBytes: FRAME_BYTES,
    droppedFrames: 0,
    duplicatesSkipped: 4,
    capStopped: false,
    truncated: null,
    targets: [
      { targetId: 'TARGET-A', url: 'https://a.example.test/', title: 'Page A', frameCount: 2 },
      { targetId: 'TARGET-B', url: 'https://b.example.test/x', title: 'Page B', frameCount: 1 },
    ],
    title: 'Page A',
    pageCount: 2,
  };
}

export async function mp4StatusOf(id: string) {
  return (await db.recording.findUniqueOrThrow({ where: { id }, select: { mp4Status: true } })).mp4Status;
}

/** A GET of bytes: status, headers and the body as a Buffer (the API's call() parses text). */
export async function getBytes(url: string, user: TestUser, headers: Record<string, string> = {}, method = 'GET') {
  const response = await fetch(`${WEB}${url}`, { method, headers: { authorization: `Bearer ${user.token}`, ...headers } });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}
