import { z } from 'zod';

const DAY_MS = 86_400_000;

export const listSessionsQuery = z.object({
  page: z.coerce.number().int().min(1, 'must be 1 or more').default(1),
  pageSize: z.coerce.number().int().min(1).max(100, 'must be at most 100').default(25),
  state: z.enum(['active', 'closed', 'errored'], { message: 'must be active, closed or errored' }).optional(),
  provider: z.string().min(1).max(64).optional(),
  since: z.coerce
    .number({ message: 'must be Unix milliseconds' })
    .int()
    .refine((ms) => ms >= Date.now() - 180 * DAY_MS, 'can go back at most 180 days')
    .optional(),
  kind: z.enum(['route', 'agent'], { message: 'must be route or agent' }).optional(),
  routerInstanceId: z.string().min(1).max(64).optional(),
});

export const DEFAULT_SESSIONS_WINDOW_MS = 30 * DAY_MS;
