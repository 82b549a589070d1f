// What a session or a call costs: pure arithmetic over lib/billing/rates.ts. Each function
// returns whole millicents, rounded up to the next millicent where a rate does not divide evenly
// (docs/billing.md, Rounding). A charge is a positive amount here; the ledger stores it negative.
import type { LedgerKind } from '../db/generated/enums';
import {
  FREE_SESSIONS_PER_MONTH,
  MILLICENTS_PER_CENT,
  RECORDING_MILLICENTS_PER_MINUTE,
  SESSION_OVERAGE_MILLICENTS,
  TRACE_MILLICENTS_PER_1K_EVENTS,
} from './rates';

export interface Charge {
  kind: LedgerKind;
  millicents: bigint;
}

/** The session or call numbered `ordinal` in its month (1-based) costs nothing within the free count. */
export function sessionCharge(ordinal: number | null): bigint {
  return ordinal !== null && ordinal > FREE_SESSIONS_PER_MONTH ? SESSION_OVERAGE_MILLICENTS : 0n;
}

/** Recording is billed per started second: 0.007 USD a minute is 700/60 millicents a second, rounded up over the whole recording. */
export function recordingCharge(recordedMs: number): bigint {
  if (!(recordedMs > 0)) return 0n;
  const seconds = BigInt(Math.ceil(recordedMs / 1000));
  return ceilDiv(seconds * RECORDING_MILLICENTS_PER_MINUTE, 60n);
}

/** Traces: 0.05 USD per 1,000 events, so 5 millicents an event (rounded up if the rate ever stops dividing). */
export function traceCharge(events: number): bigint {
  if (!(events > 0)) return 0n;
  return ceilDiv(BigInt(Math.floor(events)) * TRACE_MILLICENTS_PER_1K_EVENTS, 1_000n);
}

/**
 * How long a recording may run before its cost would use up `balance`: whole seconds whose
 * charge stays strictly below the balance (the recording stops there; the session goes on).
 */
export function recordingBudgetMs(balanceMillicents: bigint): number {
  if (balanceMillicents <= 0n) return 0;
  // Largest s with ceil(s * 700 / 60) < balance, i.e. s * 700 <= (balance - 1) * 60.
  const seconds = ((balanceMillicents - 1n) * 60n) / RECORDING_MILLICENTS_PER_MINUTE;
  return Number(seconds) * 1000;
}

/** How many trace events `balance` pays for with the charge staying strictly below it (capture stops there; the session goes on). */
export function traceBudgetEvents(balanceMillicents: bigint): number {
  if (balanceMillicents <= 0n) return 0;
  // Largest n with ceil(n * rate / 1000) < balance, i.e. n * rate <= (balance - 1) * 1000.
  const events = ((balanceMillicents - 1n) * 1_000n) / TRACE_MILLICENTS_PER_1K_EVENTS;
  return events > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(events);
}

/** The charges of one ended session, in ledger order; kinds that cost nothing are left out. */
export function sessionCharges(session: { monthOrdinal: number | null; recordedMs?: number; traceEvents?: number }): Charge[] {
  const charges: Charge[] = [
    { kind: 'session', millicents: sessionCharge(session.monthOrdinal) },
    { kind: 'recording', millicents: recordingCharge(session.recordedMs ?? 0) },
    { kind: 'observability', millicents: traceCharge(session.traceEvents ?? 0) },
  ];
  return charges.filter((c) => c.millicents > 0n);
}

export const totalOf = (charges: readonly Charge[]) => charges.reduce((sum, c) => sum + c.millicents, 0n);

/**
 * Millicents as whole cents for the integer `…Cents` fields: rounded half away from zero, so a
 * 0.05-cent session shows 0 and its exact amount stays in the `…Millicents` field beside it.
 */
export function centsOf(millicents: bigint): number {
  const negative = millicents < 0n;
  const abs = negative ? -millicents : millicents;
  const cents = (abs + MILLICENTS_PER_CENT / 2n) / MILLICENTS_PER_CENT;
  return Number(negative ? -cents : cents);
}

export const millicentsOfCents = (cents: number | bigint) => BigInt(cents) * MILLICENTS_PER_CENT;

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
