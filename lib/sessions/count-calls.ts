// The workspace's monthly session count (docs/connect.md, Limits: 10,000 free per month, shared by
// connect sessions and successful data-API calls), one row per workspace and UTC month. Connect
// sessions are counted as their row is written (session-writer.ts); a data-API call is counted
// here, and charged in the same statement when it is above the free count. The same statement
// adds the call to its router's day (DataApiUsage), which the overview and router pages show;
// a failed call is added there alone, in one statement of its own.
import { SESSION_OVERAGE_MILLICENTS, FREE_SESSIONS_PER_MONTH } from '../billing/rates';
import { ledgerDay, postingCtes } from '../billing/ledger';
import { usagePeriod } from '../billing/period';
import { db } from '../db';

export interface CallScope {
  workspaceId: string;
  routerId: string;
}

/**
 * Counts one successful data-API call (`callId` is its request id) and, past the free count,
 * charges it: never refused, so the balance may go below zero (the next top-up settles it).
 * Returns the call's place in the month.
 */
export async function countCall({ workspaceId, routerId }: CallScope, callId: string, at = new Date()): Promise<number> {
  const entries = [{ kind: 'session' as const, amountMillicents: -SESSION_OVERAGE_MILLICENTS, cause: `call:${callId}`, note: 'data API call' }];
  const [row] = await db.$queryRaw<{ ordinal: number }[]>`
    WITH counted AS (
      INSERT INTO "UsageCounter" ("workspaceId", "period", "sessions") VALUES (${workspaceId}, ${usagePeriod(at)}, 1)
      ON CONFLICT ("workspaceId", "period") DO UPDATE SET "sessions" = "UsageCounter"."sessions" + 1
      RETURNING "sessions"
    ),
    tallied AS (
      INSERT INTO "DataApiUsage" ("workspaceId", "day", "routerId", "calls") VALUES (${workspaceId}, ${ledgerDay(at)}::date, ${routerId}, 1)
      ON CONFLICT ("workspaceId", "day", "routerId") DO UPDATE SET "calls" = "DataApiUsage"."calls" + 1
    ),
    over AS (SELECT 1 FROM counted WHERE "sessions" > ${FREE_SESSIONS_PER_MONTH}),
    ${postingCtes(workspaceId, at, entries, 'over')}
    SELECT "sessions" AS "ordinal" FROM counted`;
  return row?.ordinal ?? 0;
}

/** Counts one call answered with an error after its router key was accepted (never billed). */
export async function countFailedCall({ workspaceId, routerId }: CallScope, at = new Date()): Promise<void> {
  await db.$executeRaw`
    INSERT INTO "DataApiUsage" ("workspaceId", "day", "routerId", "failed") VALUES (${workspaceId}, ${ledgerDay(at)}::date, ${routerId}, 1)
    ON CONFLICT ("workspaceId", "day", "routerId") DO UPDATE SET "failed" = "DataApiUsage"."failed" + 1`;
}
