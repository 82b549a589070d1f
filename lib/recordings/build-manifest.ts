// The API's views of manifest.ndjson (docs/api.md, Recordings): the frame list with its tabs for
// GET /v1/replays/:id/manifest, and the summary of an orphaned recording (one that never wrote
// complete.json) for GET /v1/replays/:id/complete. Pure: the caller reads the blobs.
import { FRAME_PREFIX_BYTES, type CompleteSummary, type ManifestLine } from './format';
import { PagesSeen, TabPages, type VisitedPage } from './pages';

export interface ManifestTarget {
  targetId: string;
  url: string;
  title: string;
  /** Milliseconds since the recording started, as `t` of the frames. */
  openedAt: number;
  closedAt: number | null;
  frameCount: number;
  /** The pages it showed, in order (lib/recordings/pages.ts): what the players name it by. */
  pages: VisitedPage[];
}

export interface ManifestFrame {
  index: number;
  t: number;
  targetId: string;
  chunk: number;
  /** Where the JPEG starts in the chunk (after its length prefix), and its length. */
  offset: number;
  length: number;
  width: number;
  height: number;
}

/** The tabs (in the order they appeared) and the frames (in capture order) of a manifest. */
export function readManifestLines(lines: readonly ManifestLine[]): { targets: ManifestTarget[]; frames: ManifestFrame[] } {
  const targets = new Map<string, ManifestTarget>();
  const histories = new Map<string, TabPages>();
  const targetOf = (targetId: string, t: number) => {
    let target = targets.get(targetId);
    if (!target) {
      const history = new TabPages();
      target = { targetId, url: '', title: '', openedAt: t, closedAt: null, frameCount: 0, pages: history.pages };
      targets.set(targetId, target);
      histories.set(targetId, history);
    }
    return target;
  };
  const frames: ManifestFrame[] = [];
  for (const line of lines) {
    if (line.k === 'f') {
      targetOf(line.target, line.t).frameCount += 1;
      frames.push({
        index: line.i,
        t: line.t,
        targetId: line.target,
        chunk: line.chunk,
        offset: line.offset,
        length: line.length,
        width: line.w,
        height: line.h,
      });
    } else if (line.k === 't') {
      const target = targetOf(line.target, line.t);
      if (line.url !== undefined) target.url = line.url;
      if (line.title !== undefined) target.title = line.title;
      histories.get(line.target)!.see(line.t, line.url, line.title);
      if (line.event === 'closed') target.closedAt = line.t;
    }
  }
  return { targets: [...targets.values()], frames };
}

/** How many chunks hold frames: the row's count, or more while the capture writes new ones. */
export function chunkCountOf(rowChunkCount: number, frames: readonly ManifestFrame[]): number {
  return frames.reduce((n, f) => Math.max(n, f.chunk + 1), rowChunkCount);
}

export interface OrphanInput {
  recordingId: string;
  sessionId: string;
  startedAt: Date;
  chunkCount: number;
  droppedFrames: number;
  duplicatesSkipped: number;
  capStopped: boolean;
  truncated: CompleteSummary['truncated'];
  session: { endedAt: Date | null; durationMs: number };
}

/**
 * The summary complete.json would have held, from what was captured: the frames' span as the
 * recorded time, the bytes of the chunks that hold them, the session's own length and end where
 * the session row has them.
 */
export function summarizeOrphan(input: OrphanInput, lines: readonly ManifestLine[]): CompleteSummary {
  const { targets, frames } = readManifestLines(lines);
  const pages = new PagesSeen();
  for (const line of lines) if (line.k === 't') pages.see(line.url, line.title);
  const lastT = lines.reduce((t, line) => Math.max(t, line.t), 0);
  const endedAt = input.session.endedAt ?? new Date(input.startedAt.getTime() + lastT);
  return {
    recordingId: input.recordingId,
    sessionId: input.sessionId,
    startedAt: input.startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    durationMs: lastT,
    sessionDurationMs: input.session.durationMs || Math.max(0, endedAt.getTime() - input.startedAt.getTime()),
    frameCount: frames.length,
    chunkCount: chunkCountOf(input.chunkCount, frames),
    sizeBytes: frames.reduce((n, f) => n + FRAME_PREFIX_BYTES + f.length, 0),
    droppedFrames: input.droppedFrames,
    duplicatesSkipped: input.duplicatesSkipped,
    capStopped: input.capStopped,
    truncated: input.truncated,
    targets: targets.map(({ targetId, url, title, frameCount }) => ({ targetId, url, title, frameCount })),
    title: pages.title,
    pageCount: pages.count,
  };
}
