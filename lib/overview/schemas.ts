// The overview's query string (docs/api.md, Overview).
import { z } from 'zod';
import { intParam } from '../billing/read-schemas';

export const MAX_OVERVIEW_DAYS = 90;
/** How many of the newest sessions the overview lists. */
export const LATEST_SESSIONS = 5;

export const overviewQuery = z.object({
  days: intParam(1, MAX_OVERVIEW_DAYS, 30),
});

export type OverviewQuery = z.infer<typeof overviewQuery>;

/** The getting-started checklist's items, in the order the overview shows them. */
export const CHECKLIST_ITEMS = ['add_provider', 'create_access_token', 'invite_teammate', 'first_session'] as const;
export type ChecklistItemId = (typeof CHECKLIST_ITEMS)[number];
