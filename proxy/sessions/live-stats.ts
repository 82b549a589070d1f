// Active sessions' bytes and message counts reach their rows every few seconds, so the session
// list and detail show a running session's traffic, not zeros until it ends. One UPDATE per
// flush for every session that moved; rows that already ended are left alone (the end write,
// which holds the final figures, wins whichever commits first). The 101 does not wait for the
// row (docs/connect.md): a session whose row is not written yet is counted as not flushed, so
// its figures are written once the row is there, even if it sends nothing more.
import { db } from '../../lib/db';
import { log } from '../../lib/log';
import type { SessionRegistry } from './registry';

export class LiveStatsFlusher {
  private readonly flushed = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private running: Promise<void> | null = null;

  /** `intervalMs`: SESSION_STATS_FLUSH_MS (lib/config/durations.ts). */
  constructor(
    private readonly sessions: SessionRegistry,
    intervalMs: number,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /** Writes the sessions whose traffic changed since the last flush; one flush at a time. */
  flush(): Promise<void> {
    this.running ??= this.write().finally(() => (this.running = null));
    return this.running;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async write(): Promise<void> {
    const live = new Set<string>();
    const moving: { id: string; bytesIn: number; bytesOut: number; messages: number }[] = [];
    for (const session of this.sessions.all()) {
      live.add(session.id);
      const { bytesIn, bytesOut, messages } = session.relay.stats;
      if (this.flushed.get(session.id) !== bytesIn + bytesOut) moving.push({ id: session.id, bytesIn, bytesOut, messages });
    }
    for (const id of this.flushed.keys()) if (!live.has(id)) this.flushed.delete(id);
    if (moving.length === 0) return;
    try {
      const written = await db.$queryRaw<{ id: string }[]>`
        UPDATE "SessionLog" AS s SET "bytesIn" = v."bytesIn", "bytesOut" = v."bytesOut", "messageCount" = v."messages"
        FROM (SELECT unnest(${moving.map((r) => r.id)}::text[]) AS "id", unnest(${moving.map((r) => String(r.bytesIn))}::bigint[]) AS "bytesIn",
                     unnest(${moving.map((r) => String(r.bytesOut))}::bigint[]) AS "bytesOut", unnest(${moving.map((r) => r.messages)}::int[]) AS "messages") AS v
        WHERE s."id" = v."id" AND s."state" = 'active'
        RETURNING s."id"`;
      // Only the rows written count as flushed: one not inserted yet is tried again next time.
      const wrote = new Set(written.map((row) => row.id));
      for (const row of moving) if (wrote.has(row.id)) this.flushed.set(row.id, row.bytesIn + row.bytesOut);
    } catch (error) {
      log.warn({ err: (error as Error).message, sessions: moving.length }, 'could not write live session stats');
    }
  }
}
