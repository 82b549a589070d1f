// Query strings of the billing read endpoints (docs/api.md, Billing). Invalid values answer
// 400 `bad_request` (the billing endpoints' error format).
import { z } from 'zod';
import { LedgerKind } from '../db/generated/enums';

export const LEDGER_KINDS = Object.values(LedgerKind) as [LedgerKind, ...LedgerKind[]];

export const MAX_USAGE_DAYS = 90;
export const MAX_LEDGER_ROWS = 400;
export const MAX_LEDGER_MONTHS = 12;

/** A calendar date `YYYY-MM-DD` that exists (2026-02-30 does not). */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const at = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
}

/**
 * A whole number from `min` to `max` written in decimal digits (`1.5`, `0x10`, ` 5` and an empty
 * value are refused, where a plain coercion would take some of them); absent: `fallback`.
 */
export const intParam = (min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d{1,15}$/.test(v) ? Number(v) : v),
    z.int(`must be a whole number from ${min} to ${max}`).min(min, `must be at least ${min}`).max(max, `must be at most ${max}`).default(fallback),
  );

export const usageQuery = z.object({
  days: intParam(1, MAX_USAGE_DAYS, 30),
});

export const ledgerQuery = z.object({
  limit: intParam(1, MAX_LEDGER_ROWS, 90),
  months: intParam(1, MAX_LEDGER_MONTHS, 3),
  kind: z.enum(LEDGER_KINDS, { message: `must be one of ${LEDGER_KINDS.join(', ')}` }).optional(),
  sinceDay: z.string().refine(isCalendarDay, 'must be a date as YYYY-MM-DD').optional(),
});

export type UsageQuery = z.infer<typeof usageQuery>;
export type LedgerQuery = z.infer<typeof ledgerQuery>;
