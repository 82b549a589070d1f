// Input of the traces endpoints (docs/api.md, Traces): the list's query and the events' `page` or
// `download`. The ranges and defaults from the spec appear here once.
import { z } from 'zod';

const DAY_MS = 86_400_000;

/** Without `since` (and without `session_id`) the list shows the traces of the last 24 hours. */
export const TRACES_DEFAULT_WINDOW_MS = DAY_MS;
export const TRACES_LIST_MAX = 200;
export const TRACES_LIST_DEFAULT = 50;
/** The latest instant a JavaScript Date holds: a larger `since` is refused rather than failing the query. */
const MAX_DATE_MS = 8_640_000_000_000_000;

export const listTracesQuery = z
  .object({
    limit: z.coerce.number().int().min(1, 'must be 1 or more').max(TRACES_LIST_MAX, `must be at most ${TRACES_LIST_MAX}`).default(TRACES_LIST_DEFAULT),
    since: z.coerce
      .number({ message: 'must be Unix milliseconds' })
      .int()
      .min(0, 'must be Unix milliseconds')
      .max(MAX_DATE_MS, 'is too far in the future')
      .optional(),
    session_id: z.string().min(1).max(64).optional(),
  })
  // One session's trace is found whenever it started; the list of the router is the last day's.
  .transform((q) => ({ ...q, since: q.since ?? (q.session_id ? null : Date.now() - TRACES_DEFAULT_WINDOW_MS) }));

export type ListTracesQuery = z.infer<typeof listTracesQuery>;

export const DOWNLOAD_FORMATS = ['json', 'gz', 'har'] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

/** GET /v1/inspections/:id/events: nothing (every event), `page=<n>` (from 0), or `download=json|gz|har`. */
export const eventsQuery = z
  .object({
    page: z
      .string()
      .regex(/^\d{1,9}$/, 'use a whole number from 0')
      .transform(Number)
      .optional(),
    download: z.enum(DOWNLOAD_FORMATS, { message: 'must be json, gz or har' }).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.page !== undefined && q.download !== undefined)
      ctx.addIssue({ code: 'custom', path: ['download'], message: 'use either page or download, not both' });
  });

export type EventsQuery = z.infer<typeof eventsQuery>;
