// Session rows. A session's id is made here so that the client's `101` need not wait for the
// insert; the end update is chained after the insert, so it can never overtake it. The end and
// its webhook events commit together (lib/webhooks/enqueue-session-event.ts).
import { randomUUID } from 'node:crypto';
import { db } from '../../lib/db';
import { log } from '../../lib/log';
import { enqueueSessionEvent, matchingWebhooks, type SessionForEvent } from '../../lib/webhooks/enqueue-session-event';
import { sessionEventOf } from '../../lib/webhooks/payload';
import type { RelayOutcome, RelayStats } from '../relay/types';
import { usagePeriod } from './usage';

export interface SessionStart {
  id: string;
  workspaceId: string;
  routerId: string;
  provider: { id: string; slug: string; name: string };
  kind: 'route' | 'agent';
  proxyInstanceId: string;
  startedAt: Date;
}

export const newSessionId = () => `ses_${randomUUID().replaceAll('-', '')}`;

// A drain ends many sessions at once; they queue for pool connections rather than fail.
const END_TX = { maxWait: 10_000, timeout: 15_000 };

export class SessionWriter {
  private started: Promise<void>;

  constructor(private readonly session: SessionStart) {
    // One statement (so one round trip and atomic): the row and the month's session count.
    this.started = db.$executeRaw`
      WITH started AS (
        INSERT INTO "SessionLog" ("id", "workspaceId", "routerId", "providerId", "providerSlug", "providerName", "kind", "state", "startedAt", "proxyInstanceId")
        VALUES (${session.id}, ${session.workspaceId}, ${session.routerId}, ${session.provider.id}, ${session.provider.slug}, ${session.provider.name},
          ${session.kind}::"SessionKind", 'active', ${session.startedAt}, ${session.proxyInstanceId})
      )
      INSERT INTO "UsageCounter" ("workspaceId", "period", "sessions") VALUES (${session.workspaceId}, ${usagePeriod(session.startedAt)}, 1)
      ON CONFLICT ("workspaceId", "period") DO UPDATE SET "sessions" = "UsageCounter"."sessions" + 1`
      .then(() => undefined)
      .catch((error: Error) => log.error({ sessionId: session.id, err: error.message }, 'could not record session start'));
  }

  /** The end of the session and its webhook events, in one transaction (the durable outbox). */
  finish(outcome: RelayOutcome, stats: RelayStats): Promise<void> {
    const endedAt = new Date();
    const end = {
      state: outcome.state,
      endedAt,
      errorReason: outcome.reason,
      durationMs: endedAt.getTime() - this.session.startedAt.getTime(),
      bytesIn: BigInt(stats.bytesIn),
      bytesOut: BigInt(stats.bytesOut),
      messageCount: stats.messages,
    };
    return this.started
      .then(async () => {
        // Most sessions have no webhook to tell: then the end is one statement, which writes only
        // if no webhook matches in the same snapshot. Otherwise the end and its events commit
        // together in a transaction (the durable outbox).
        if (await this.endWithoutEvents(end)) return;
        await db.$transaction(async (tx) => {
          const ended = await tx.sessionLog.update({ where: { id: this.session.id }, data: end });
          await enqueueSessionEvent(tx, ended);
        }, END_TX);
      })
      .catch((error: Error) => log.error({ sessionId: this.session.id, err: error.message }, 'could not record session end'));
  }

  private async endWithoutEvents(end: { state: 'closed' | 'errored'; endedAt: Date; errorReason: string | null; durationMs: number; bytesIn: bigint; bytesOut: bigint; messageCount: number }): Promise<boolean> {
    const [row] = await db.$queryRaw<{ ended: number }[]>`
      WITH hooks AS (${matchingWebhooks(this.session.workspaceId, this.session.routerId, sessionEventOf(end))}),
      ended AS (
        UPDATE "SessionLog" SET "state" = ${end.state}::"SessionState", "endedAt" = ${end.endedAt}, "errorReason" = ${end.errorReason},
          "durationMs" = ${end.durationMs}, "bytesIn" = ${end.bytesIn}, "bytesOut" = ${end.bytesOut}, "messageCount" = ${end.messageCount}
        WHERE "id" = ${this.session.id} AND NOT EXISTS (SELECT 1 FROM hooks)
        RETURNING 1
      )
      SELECT count(*)::int AS "ended" FROM ended`;
    return row?.ended === 1;
  }
}

/** Sessions a previous run of this proxy left `active` (it crashed): settle them as errored, with their events. */
export async function settleOrphanedSessions(proxyInstanceId: string): Promise<number> {
  return db.$transaction(async (tx) => {
    const settled = await tx.$queryRaw<SessionForEvent[]>`
      UPDATE "SessionLog" SET "state" = 'errored', "endedAt" = now(), "errorReason" = 'the proxy restarted while the session ran',
        "durationMs" = GREATEST(0, (EXTRACT(EPOCH FROM (now() - "startedAt")) * 1000)::int)
      WHERE "proxyInstanceId" = ${proxyInstanceId} AND "state" = 'active'
      RETURNING "id", "workspaceId", "routerId", "providerSlug", "state"::text AS "state", "playground", "durationMs", "bytesIn", "bytesOut",
        "billedMillicents", "errorReason", "endedAt"`;
    for (const session of settled) await enqueueSessionEvent(tx, session);
    return settled.length;
  }, { maxWait: 10_000, timeout: 60_000 });
}
