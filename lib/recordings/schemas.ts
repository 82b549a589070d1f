// Input of the recordings endpoints (docs/api.md, Recordings): the list's query, the chunk index
// and the download's `inline` switch. The ranges from the spec appear here once.
import { z } from 'zod';

const DAY_MS = 86_400_000;

/** Recordings are listed for this long after they started (the spec's "last 30 days"). */
export const RECORDINGS_LISTED_MS = 30 * DAY_MS;
export const RECORDINGS_LIST_MAX = 200;
export const RECORDINGS_LIST_DEFAULT = 50;

export const listRecordingsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1, 'must be 1 or more')
    .max(RECORDINGS_LIST_MAX, `must be at most ${RECORDINGS_LIST_MAX}`)
    .default(RECORDINGS_LIST_DEFAULT),
  session_id: z.string().min(1).max(64).optional(),
  routerInstanceId: z.string().min(1).max(64).optional(),
});

export type ListRecordingsQuery = z.infer<typeof listRecordingsQuery>;

/** `:index` of GET /v1/replays/:id/chunks/:index: a whole number written in plain digits. */
export const chunkIndexSchema = z
  .string()
  .regex(/^\d{1,9}$/, 'use a whole number from 0')
  .transform(Number);

/** GET /v1/replays/:id/export/download: `?inline=1` serves the video to a player instead of as an attachment. */
export const downloadQuery = z.object({
  inline: z
    .enum(['0', '1', 'true', 'false'], { message: 'must be 1 or 0' })
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});
