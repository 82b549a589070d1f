// How a recording is laid out in blob storage (docs/recordings.md, "Storage"). The capture plugin
// (proxy/plugins/recording/) writes it, the API serves it, the encoder reads it.
//
//   recordings/<recordingId>/chunks/000000.bin   frames: [u32 big-endian length][JPEG bytes], repeated
//   recordings/<recordingId>/manifest.ndjson     one JSON line per frame or tab event, as captured
//   recordings/<recordingId>/complete.json       the end-of-session summary (written last)
//   recordings/<recordingId>/video.mp4           the encoded video, once ready
//
// A chunk rolls over at CHUNK_MAX_BYTES or CHUNK_MAX_MS, so a running recording's older chunks are
// final and small enough for a player to fetch one at a time.

export const CHUNK_MAX_BYTES = 8 * 1024 * 1024;
export const CHUNK_MAX_MS = 60_000;
/** The length prefix before each frame in a chunk. */
export const FRAME_PREFIX_BYTES = 4;

export const recordingFolder = (recordingId: string) => `recordings/${recordingId.toLowerCase()}`;
export const chunkKey = (recordingId: string, index: number) => `${recordingFolder(recordingId)}/chunks/${String(index).padStart(6, '0')}.bin`;
export const manifestKey = (recordingId: string) => `${recordingFolder(recordingId)}/manifest.ndjson`;
export const completeKey = (recordingId: string) => `${recordingFolder(recordingId)}/complete.json`;
export const videoKey = (recordingId: string) => `${recordingFolder(recordingId)}/video.mp4`;

/** A captured frame. `t` is milliseconds since the recording started; `offset` points at the JPEG (after its prefix). */
export interface FrameLine {
  k: 'f';
  /** Frame number in the recording, from 0. */
  i: number;
  t: number;
  target: string;
  chunk: number;
  offset: number;
  length: number;
  /** The page's CSS viewport the frame shows (from the screencast metadata) and the JPEG's size. */
  w: number;
  h: number;
}

/** A tab appeared, navigated (url/title changed) or closed, `t` ms after the recording started. */
export interface TargetLine {
  k: 't';
  t: number;
  target: string;
  event: 'opened' | 'changed' | 'closed';
  url?: string;
  title?: string;
}

export type ManifestLine = FrameLine | TargetLine;

/** complete.json, and the summary the API's GET /v1/replays/:id/complete returns. */
export interface CompleteSummary {
  recordingId: string;
  sessionId: string;
  startedAt: string;
  endedAt: string;
  /** How long frames were captured (the billed time): up to a cap stop or the session's end. */
  durationMs: number;
  /** The session's whole length, which the video covers (the last frame held to the end). */
  sessionDurationMs: number;
  frameCount: number;
  chunkCount: number;
  sizeBytes: number;
  droppedFrames: number;
  duplicatesSkipped: number;
  capStopped: boolean;
  truncated: null | 'byte-cap' | 'wallet-drained';
  targets: { targetId: string; url: string; title: string; frameCount: number }[];
  /** The first title its tabs showed, and how many pages it visited (lib/recordings/pages.ts); absent from older files. */
  title?: string | null;
  pageCount?: number;
}

/** Splits a chunk into its frames (the inverse of the capture's writes). */
export function* framesOfChunk(chunk: Buffer): Generator<Buffer> {
  let at = 0;
  while (at + FRAME_PREFIX_BYTES <= chunk.length) {
    const length = chunk.readUInt32BE(at);
    const start = at + FRAME_PREFIX_BYTES;
    if (start + length > chunk.length) return; // a frame still being written
    yield chunk.subarray(start, start + length);
    at = start + length;
  }
}

/** Parses manifest.ndjson; a last line still being written is skipped. */
export function parseManifest(text: string): ManifestLine[] {
  const lines: ManifestLine[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      lines.push(JSON.parse(line) as ManifestLine);
    } catch {
      // a partial last line of a recording in progress
    }
  }
  return lines;
}
