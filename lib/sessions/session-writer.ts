// Session rows. A session's id is made here so that the client's `101` need not wait for the
// insert; the end update is chained after the insert, so it can never overtake it. The end, its
// charges (lib/billing/ledger.ts) and its webhook events commit together: one statement when no
// webhook matches, one transaction otherwise (lib/webhooks/enqueue-session-event.ts).
import { randomUUID } from 'node:crypto';
import { sessionCharges, totalOf, type Charge } from '../billing/charges';
import { postingCtes, post, type Entry } from '../billing/ledger';
import { usagePeriod } from '../billing/period';
import { db, Prisma } from '../db';
import { log } from '../log';
import { enqueueSessionEvent, matchingWebhooks, type SessionForEvent } from '../webhooks/enqueue-session-event';
import { sessionEventOf } from '../webhooks/payload';

export interface SessionStart {
  id: string;
  workspaceId: string;
  routerId: string;
  provider: { id: string; slug: string; name: string };
  kind: 'route' | 'agent';
  proxyInstanceId: string;
  startedAt: Date;
  profileId?: string | null;
}

/** How a session ended, as the relay that carried it reports it. */
export interface SessionOutcome {
  state: 'closed' | 'errored';
  reason: string | null;
}

/** What a session carried, counted by its relay. */
export interface SessionTraffic {
  /** Bytes received from the client (into the service). */
  bytesIn: number;
  /** Bytes sent to the client. */
  bytesOut: number;
  messages: number;
}

export const newSessionId = () => `ses_${randomUUID().replaceAll('-', '')}`;

// A drain ends many sessions at once; they queue for pool connections rather than fail.
const END_TX = { maxWait: 10_000, timeout: 15_000 };

/** What a session captured that is billed at its end (recording and trace plugins report it). */
export interface Captured {
  recordedMs?: number;
  traceEvents?: number;
}

interface End {
  state: 'closed' | 'errored';
  endedAt: Date;
  errorReason: string | null;
  durationMs: number;
  bytesIn: bigint;
  bytesOut: bigint;
  messageCount: number;
  billedMillicents: bigint;
}

/** A session's charges as ledger entries (negative amounts), one cause per session and kind. */
export function chargeEntries(sessionId: string, charges: readonly Charge[]): Entry[] {
  return charges.map((c) => ({ kind: c.kind, amountMillicents: -c.millicents, cause: `session:${sessionId}:${c.kind}`, sessionLogId: sessionId }));
}

export class SessionWriter {
  /** Resolves to the session's place in its month (null if the start could not be written). */
  private started: Promise<number | null>;

  constructor(private readonly session: SessionStart) {
    // One statement (so one round trip and atomic): the month's session count and the row, which
    // keeps its place in the count so that its end (or a restarted proxy) knows what it costs.
    this.started = db.$queryRaw<{ monthOrdinal: number }[]>`
      WITH counted AS (
        INSERT INTO "UsageCounter" ("workspaceId", "period", "sessions") VALUES (${session.workspaceId}, ${usagePeriod(session.startedAt)}, 1)
        ON CONFLICT ("workspaceId", "period") DO UPDATE SET "sessions" = "UsageCounter"."sessions" + 1
        RETURNING "sessions"
      )
      INSERT INTO "SessionLog" ("id", "workspaceId", "routerId", "providerId", "providerSlug", "providerName", "kind", "state", "startedAt", "proxyInstanceId", "monthOrdinal", "profileId")
      SELECT ${session.id}, ${session.workspaceId}, ${session.routerId}, ${session.provider.id}, ${session.provider.slug}, ${session.provider.name},
        ${session.kind}::"SessionKind", 'active', ${session.startedAt}, ${session.proxyInstanceId}, counted."sessions", ${session.profileId ?? null} FROM counted
      RETURNING "monthOrdinal"`
      .then((rows) => rows[0]?.monthOrdinal ?? null)
      .catch((error: Error) => {
        log.error({ sessionId: session.id, err: error.message }, 'could not record session start');
        return null;
      });
  }

  /** Settles once the session's row is written (rows that refer to it wait for this). */
  get inserted(): Promise<unknown> {
    return this.started;
  }

  /** The end of the session (at `endedAt`), its charges and its webhook events, committed together. */
  finish(outcome: SessionOutcome, stats: SessionTraffic, captured: Captured = {}, endedAt = new Date()): Promise<void> {
    return this.started
      .then(async (monthOrdinal) => {
        const charges = sessionCharges({ monthOrdinal, ...captured });
        const end: End = {
          state: outcome.state,
          endedAt,
          errorReason: outcome.reason,
          durationMs: endedAt.getTime() - this.session.startedAt.getTime(),
          bytesIn: BigInt(stats.bytesIn),
          bytesOut: BigInt(stats.bytesOut),
          messageCount: stats.messages,
          billedMillicents: totalOf(charges),
        };
        const entries = chargeEntries(this.session.id, charges);
        // Most sessions have no webhook to tell: then the end and its charges are one statement,
        // which writes only if no webhook matches in the same snapshot. Otherwise the end, the
        // charges and the events commit together in a transaction (the durable outbox).
        if (await this.endWithoutEvents(end, entries)) return;
        await db.$transaction(async (tx) => {
          const ended = await tx.sessionLog.update({ where: { id: this.session.id }, data: end });
          await post(tx, this.session.workspaceId, entries, endedAt);
          await enqueueSessionEvent(tx, ended);
        }, END_TX);
      })
      .catch((error: Error) => log.error({ sessionId: this.session.id, err: error.message }, 'could not record session end'));
  }

  private async endWithoutEvents(end: End, entries: Entry[]): Promise<boolean> {
    const charging = entries.length > 0 ? Prisma.sql`, ${postingCtes(this.session.workspaceId, end.endedAt, entries, 'ended')}` : Prisma.empty;
    const [row] = await db.$queryRaw<{ ended: number }[]>`
      WITH hooks AS (${matchingWebhooks(this.session.workspaceId, this.session.routerId, sessionEventOf(end))}),
      ended AS (
        UPDATE "SessionLog" SET "state" = ${end.state}::"SessionState", "endedAt" = ${end.endedAt}, "errorReason" = ${end.errorReason},
          "durationMs" = ${end.durationMs}, "bytesIn" = ${end.bytesIn}, "bytesOut" = ${end.bytesOut}, "messageCount" = ${end.messageCount},
          "billedMillicents" = ${end.billedMillicents}
        WHERE "id" = ${this.session.id} AND NOT EXISTS (SELECT 1 FROM hooks)
        RETURNING 1
      )${charging}
      SELECT count(*)::int AS "ended" FROM ended`;
    return row?.ended === 1;
  }
}

export const PROXY_RESTARTED = 'the proxy restarted while the session ran';
export const PROXY_STOPPED = 'the proxy holding the session stopped';

/**
 * Sessions a proxy run left `active` (it crashed, or stopped answering): settle them as errored,
 * with their session charge (what they captured died with the process) and their events.
 */
export async function settleOrphanedSessions(proxyInstanceId: string, reason = PROXY_RESTARTED): Promise<number> {
  return db.$transaction(
    async (tx) => {
      const settled = await tx.$queryRaw<(SessionForEvent & { monthOrdinal: number | null })[]>`
      UPDATE "SessionLog" SET "state" = 'errored', "endedAt" = now(), "errorReason" = ${reason},
        "durationMs" = GREATEST(0, (EXTRACT(EPOCH FROM (now() - "startedAt")) * 1000)::int)
      WHERE "proxyInstanceId" = ${proxyInstanceId} AND "state" = 'active'
      RETURNING "id", "workspaceId", "routerId", "providerSlug", "state"::text AS "state", "playground", "durationMs", "bytesIn", "bytesOut",
        "billedMillicents", "errorReason", "endedAt", "monthOrdinal"`;
      for (const session of settled) {
        const charges = sessionCharges({ monthOrdinal: session.monthOrdinal });
        if (charges.length > 0) {
          session.billedMillicents = totalOf(charges);
          await tx.sessionLog.update({ where: { id: session.id }, data: { billedMillicents: session.billedMillicents } });
          await post(tx, session.workspaceId, chargeEntries(session.id, charges), session.endedAt ?? new Date());
        }
        await enqueueSessionEvent(tx, session);
      }
      return settled.length;
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
}
