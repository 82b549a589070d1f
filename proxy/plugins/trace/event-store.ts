// Writes a trace's events as they come (lib/traces/format.ts): page files of PAGE_SIZE lines, then
// complete.json. Nothing is held beyond the writers' buffers, whatever the session's length; an
// event is dropped (and counted) rather than queued when storage falls behind, and refused at the
// trace's event limit. The lines of one turn of the event loop (a burst of network events arrives
// in one socket read) go to the file in one write, not one write each.
import type { BlobStore, BlobWriter } from '../../../lib/blobs';
import { PAGE_SIZE, pageKey, pagesOf, traceCompleteKey, type CapturedEvent, type TraceSummary } from '../../../lib/traces/format';

/** Storage is behind by more than this: events are dropped until it catches up. */
export const BACKLOG_LIMIT_BYTES = 16 * 1024 * 1024;
/** Lines are gathered up to this size (or the end of the event loop's turn) before a write. */
const BATCH_BYTES = 64 * 1024;

export type StoreResult = 'stored' | 'dropped' | 'full';

export class EventStore {
  private page: BlobWriter | null = null;
  private readonly flushing = new Set<BlobWriter>();
  private closing: Promise<void>[] = [];
  private batch = '';
  private flushScheduled = false;
  eventCount = 0;
  sizeBytes = 0;
  droppedEvents = 0;

  constructor(
    private readonly store: BlobStore,
    private readonly traceId: string,
    /** The most events this trace may hold (the 2,000,000 cap, or fewer when the wallet pays for fewer). */
    private readonly maxEvents: number,
  ) {}

  private get backlog(): number {
    let bytes = this.batch.length + (this.page?.pendingBytes ?? 0);
    for (const writer of this.flushing) bytes += writer.pendingBytes;
    return bytes;
  }

  /** Stores one event; `full` once the trace holds `maxEvents`. */
  add(event: CapturedEvent): StoreResult {
    if (this.eventCount >= this.maxEvents) return 'full';
    if (this.backlog > BACKLOG_LIMIT_BYTES) {
      this.droppedEvents++;
      return 'dropped';
    }
    if (this.eventCount % PAGE_SIZE === 0) this.rollOver();
    const line = `${JSON.stringify({ seq: this.eventCount, ...event })}\n`;
    this.batch += line;
    this.sizeBytes += Buffer.byteLength(line);
    this.eventCount++;
    if (this.batch.length >= BATCH_BYTES) this.flush();
    else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    return 'stored';
  }

  private flush(): void {
    this.flushScheduled = false;
    if (!this.batch || !this.page) return;
    this.page.write(this.batch);
    this.batch = '';
  }

  private rollOver(): void {
    this.flush();
    const old = this.page;
    if (old) {
      this.flushing.add(old);
      const ended = old.end().finally(() => this.flushing.delete(old));
      // A failed blob is close()'s to report; until then its rejection must not count as unhandled (it would end the process).
      ended.catch(() => {});
      this.closing.push(ended);
    }
    this.page = this.store.writer(pageKey(this.traceId, this.eventCount / PAGE_SIZE));
  }

  /** Flushes everything and writes complete.json last (its presence means the pages are whole). */
  async close(summary: Omit<TraceSummary, 'eventCount' | 'pages' | 'sizeBytes' | 'droppedEvents'>): Promise<TraceSummary> {
    this.flush();
    await Promise.all([...this.closing, this.page?.end()]);
    const complete: TraceSummary = {
      ...summary,
      eventCount: this.eventCount,
      pages: pagesOf(this.eventCount),
      sizeBytes: this.sizeBytes,
      droppedEvents: this.droppedEvents,
    };
    await this.store.put(traceCompleteKey(this.traceId), JSON.stringify(complete));
    return complete;
  }
}
