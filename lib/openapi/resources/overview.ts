// The overview's answer (docs/api.md, Overview).
import { z } from 'zod';
import { CHECKLIST_ITEMS } from '../../overview/schemas';
import { accountState, count, ex, named, timestamp } from './common';
import { session } from './sessions';

const day = z.object({
  day: z.string().meta({ format: 'date' }).describe('a UTC day, YYYY-MM-DD'),
  sessions: count.describe('sessions started that day (playground sessions left out)'),
  active: count,
  closed: count,
  errored: count,
  dataApiCalls: count.describe('data-API calls answered 200'),
  dataApiFailed: count.describe('data-API calls answered with an error after the router key was accepted'),
});

export const overview = named(
  'Overview',
  z.object({
    days: z.int().min(1),
    series: z.array(day).describe('one row per UTC day of the window, oldest first, days without activity included'),
    totals: day.omit({ day: true }),
    activeSessions: count.describe('running now, whenever they started'),
    errorsByProvider: z
      .array(z.object({ routerId: z.string().nullable(), providerSlug: z.string(), providerName: z.string(), sessions: count, errored: count }))
      .describe('most errored first'),
    routers: z.array(
      z.object({
        id: z.string(),
        slug: z.string(),
        name: z.string(),
        providerCount: count,
        activeSessions: count,
        sessions: count,
        errored: count,
        dataApiCalls: count,
        dataApiFailed: count,
      }),
    ),
    wallet: z.object({ accountState, balanceUsdCents: z.int(), balanceMillicents: z.int() }),
    freeSessions: z.object({ includedCount: count, usedCount: count, remaining: count, resetsAt: timestamp }),
    latestSessions: z.array(session.extend({ routerId: z.string().nullable() })).describe('the five newest'),
    checklist: z.object({ complete: z.boolean(), items: z.array(z.object({ id: z.enum(CHECKLIST_ITEMS), done: z.boolean() })) }),
  }),
  {
    example: {
      days: 1,
      series: [{ day: '2026-11-24', sessions: 12, active: 1, closed: 10, errored: 1, dataApiCalls: 40, dataApiFailed: 2 }],
      totals: { sessions: 12, active: 1, closed: 10, errored: 1, dataApiCalls: 40, dataApiFailed: 2 },
      activeSessions: 1,
      errorsByProvider: [{ routerId: ex.routerId, providerSlug: 'local-chrome', providerName: 'Local Chrome', sessions: 12, errored: 1 }],
      routers: [
        {
          id: ex.routerId,
          slug: 'default',
          name: 'Default',
          providerCount: 1,
          activeSessions: 1,
          sessions: 12,
          errored: 1,
          dataApiCalls: 40,
          dataApiFailed: 2,
        },
      ],
      wallet: { accountState: 'paid', balanceUsdCents: 1_250, balanceMillicents: 1_250_000 },
      freeSessions: { includedCount: 1_000, usedCount: 52, remaining: 948, resetsAt: '2026-12-01T00:00:00.000Z' },
      latestSessions: [],
      checklist: { complete: false, items: CHECKLIST_ITEMS.map((id) => ({ id, done: id !== 'invite_teammate' })) },
    },
  },
);
