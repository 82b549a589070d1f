// Writes a recording's frames as they arrive (lib/recordings/format.ts): chunk files of
// length-prefixed JPEGs that roll over by size and age, and one manifest line per frame or tab
// event. Nothing is kept in memory beyond the writers' buffers, whatever the session's length. A
// frame is dropped (and counted) rather than queued when storage falls behind, and refused at
// the byte cap.
import type { BlobStore, BlobWriter } from '../../../lib/blobs';
import {
  CHUNK_MAX_BYTES,
  CHUNK_MAX_MS,
  chunkKey,
  completeKey,
  FRAME_PREFIX_BYTES,
  manifestKey,
  type CompleteSummary,
  type FrameLine,
  type TargetLine,
} from '../../../lib/recordings/format';
import { PagesSeen } from '../../../lib/recordings/pages';

/** Storage is behind by more than this: frames are dropped until it catches up. */
export const BACKLOG_LIMIT_BYTES = 16 * 1024 * 1024;

export type StoreResult = 'stored' | 'dropped' | 'cap';

export interface TargetSummary {
  targetId: string;
  url: string;
  title: string;
  frameCount: number;
}

export class FrameStore {
  private chunk: BlobWriter | null = null;
  private chunkIndex = -1;
  private chunkBytes = 0;
  private chunkStartedAt = 0;
  private readonly manifest: BlobWriter;
  /** Chunks being flushed after a rollover (their unwritten bytes still count as backlog). */
  private closing: Promise<void>[] = [];
  private readonly flushing = new Set<BlobWriter>();
  frameCount = 0;
  sizeBytes = 0;
  droppedFrames = 0;
  readonly targets = new Map<string, TargetSummary>();
  /** The recording's name in lists: its first title and pages visited. */
  readonly pages = new PagesSeen();

  constructor(
    private readonly store: BlobStore,
    private readonly recordingId: string,
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {
    this.manifest = store.writer(manifestKey(recordingId));
  }

  get chunkCount(): number {
    return this.chunkIndex + 1;
  }

  private get backlog(): number {
    let bytes = (this.chunk?.pendingBytes ?? 0) + this.manifest.pendingBytes;
    for (const writer of this.flushing) bytes += writer.pendingBytes;
    return bytes;
  }

  /** Stores one frame (`t` ms after the recording started). */
  frame(targetId: string, t: number, jpeg: Buffer, width: number, height: number): StoreResult {
    const bytes = FRAME_PREFIX_BYTES + jpeg.length;
    if (this.sizeBytes + bytes > this.maxBytes) return 'cap';
    if (this.backlog > BACKLOG_LIMIT_BYTES) {
      this.droppedFrames++;
      return 'dropped';
    }
    if (!this.chunk || this.chunkBytes + bytes > CHUNK_MAX_BYTES || this.now() - this.chunkStartedAt >= CHUNK_MAX_MS) this.rollOver();
    const prefix = Buffer.allocUnsafe(FRAME_PREFIX_BYTES);
    prefix.writeUInt32BE(jpeg.length, 0);
    this.chunk!.write(prefix);
    this.chunk!.write(jpeg);
    const line: FrameLine = {
      k: 'f',
      i: this.frameCount,
      t,
      target: targetId,
      chunk: this.chunkIndex,
      offset: this.chunkBytes + FRAME_PREFIX_BYTES,
      length: jpeg.length,
      w: width,
      h: height,
    };
    this.manifest.write(`${JSON.stringify(line)}\n`);
    this.chunkBytes += bytes;
    this.sizeBytes += bytes;
    this.frameCount++;
    const target = this.target(targetId);
    target.frameCount++;
    return 'stored';
  }

  /** A tab opened, changed its address or title, or closed. */
  targetEvent(line: Omit<TargetLine, 'k'>): void {
    const target = this.target(line.target);
    if (line.url !== undefined) target.url = line.url;
    if (line.title !== undefined) target.title = line.title;
    this.pages.see(line.url, line.title);
    this.manifest.write(`${JSON.stringify({ k: 't', ...line })}\n`);
  }

  private target(targetId: string): TargetSummary {
    let target = this.targets.get(targetId);
    if (!target) {
      target = { targetId, url: '', title: '', frameCount: 0 };
      this.targets.set(targetId, target);
    }
    return target;
  }

  private rollOver(): void {
    const old = this.chunk;
    if (old) {
      this.flushing.add(old);
      const ended = old.end().finally(() => this.flushing.delete(old));
      // A failed blob is close()'s to report; until then its rejection must not count as unhandled (it would end the process).
      ended.catch(() => {});
      this.closing.push(ended);
    }
    this.chunkIndex++;
    this.chunk = this.store.writer(chunkKey(this.recordingId, this.chunkIndex));
    this.chunkBytes = 0;
    this.chunkStartedAt = this.now();
  }

  /** Flushes everything and writes complete.json last (its presence means the files are whole). */
  async close(
    summary: Omit<CompleteSummary, 'frameCount' | 'chunkCount' | 'sizeBytes' | 'droppedFrames' | 'targets' | 'title' | 'pageCount'>,
  ): Promise<CompleteSummary> {
    await Promise.all([...this.closing, this.chunk?.end(), this.manifest.end()]);
    const complete: CompleteSummary = {
      ...summary,
      frameCount: this.frameCount,
      chunkCount: this.chunkCount,
      sizeBytes: this.sizeBytes,
      droppedFrames: this.droppedFrames,
      targets: [...this.targets.values()],
      title: this.pages.title,
      pageCount: this.pages.count,
    };
    await this.store.put(completeKey(this.recordingId), JSON.stringify(complete));
    return complete;
  }
}
