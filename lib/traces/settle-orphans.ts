// Traces a crashed proxy left behind (docs/traces.md, "Orphans"): their session was settled as
// errored when the proxy came back (lib/sessions/session-writer.ts), and their events are on
// storage up to the crash. The row gets the figures the page files give (a torn last line is not
// counted) and stays `complete: false`, which the API shows as `orphaned`; the events are
// readable. The events of an orphan are not billed: what the customer was to pay for died with
// the process.
import type { BlobStore } from '../blobs';
import { db } from '../db';
import { log } from '../log';
import { PAGE_SIZE, pageKey, parsePage } from './format';

export async function settleOrphanedTraces(proxyInstanceId: string, store: BlobStore): Promise<number> {
  const orphans = await db.$queryRaw<{ id: string; startedAt: Date; endedAt: Date | null }[]>`
    SELECT t."id", t."startedAt", s."endedAt" FROM "Trace" t JOIN "SessionLog" s ON s."id" = t."sessionLogId"
    WHERE s."proxyInstanceId" = ${proxyInstanceId} AND s."state" <> 'active' AND NOT t."complete" AND t."endedAt" IS NULL`;
  for (const orphan of orphans) {
    try {
      const { eventCount, sizeBytes } = await countEvents(store, orphan.id);
      const endedAt = orphan.endedAt ?? new Date();
      await db.trace.update({
        where: { id: orphan.id },
        data: { endedAt, durationMs: Math.max(0, endedAt.getTime() - orphan.startedAt.getTime()), eventCount, sizeBytes: BigInt(sizeBytes) },
      });
    } catch (error) {
      log.error({ traceId: orphan.id, err: (error as Error).message }, 'could not settle an orphaned trace');
    }
  }
  return orphans.length;
}

/** The whole events on storage: every full page, and the lines of the last that parse. */
export async function countEvents(store: BlobStore, traceId: string): Promise<{ eventCount: number; sizeBytes: number }> {
  let eventCount = 0;
  let sizeBytes = 0;
  for (let page = 0; ; page++) {
    const text = (await store.get(pageKey(traceId, page)))?.toString('utf8');
    if (text === undefined) return { eventCount, sizeBytes };
    const events = parsePage(text);
    eventCount += events.length;
    sizeBytes += events.reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e)) + 1, 0);
    if (events.length < PAGE_SIZE) return { eventCount, sizeBytes };
  }
}
