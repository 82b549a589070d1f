// Fixed-window counters in PostgreSQL, so every web instance sees the same counts.
import { db } from '../db';

/** Adds one to the bucket and returns its new count, in one statement. */
export async function hitBucket(key: string, windowStart: Date): Promise<number> {
  const rows = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO "RateLimitBucket" ("key", "windowStart", "count") VALUES (${key}, ${windowStart}, 1)
    ON CONFLICT ("key", "windowStart") DO UPDATE SET "count" = "RateLimitBucket"."count" + 1
    RETURNING "count"`;
  return Number(rows[0]!.count);
}

export async function readBucket(key: string, windowStart: Date): Promise<number> {
  const row = await db.rateLimitBucket.findUnique({ where: { key_windowStart: { key, windowStart } } });
  return row?.count ?? 0;
}

export function windowStartOf(now: number, windowMs: number): Date {
  return new Date(Math.floor(now / windowMs) * windowMs);
}

/** Throttle: true while the key has had fewer than `limit` hits in the current window. */
export async function allowAttempt(key: string, limit: number, windowMs: number, now = Date.now()): Promise<boolean> {
  return (await hitBucket(key, windowStartOf(now, windowMs))) <= limit;
}
