// The workspace's monthly session count (docs/connect.md, Limits: 10,000 free per month, shared by connect
// sessions and successful data-API calls). One row per workspace and UTC month; billing reads it.
import { db } from '../../lib/db';

export const usagePeriod = (at: Date) => at.toISOString().slice(0, 7);

/** Adds one session to the month of `at`. A Prisma promise: await it, or pass it to db.$transaction([...]). */
export function countSession(workspaceId: string, at: Date) {
  return db.$executeRaw`INSERT INTO "UsageCounter" ("workspaceId", "period", "sessions") VALUES (${workspaceId}, ${usagePeriod(at)}, 1)
    ON CONFLICT ("workspaceId", "period") DO UPDATE SET "sessions" = "UsageCounter"."sessions" + 1`;
}
