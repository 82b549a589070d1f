// Answers of the billing endpoints (docs/api.md, Billing).
import { z } from 'zod';
import { LEDGER_KINDS } from '../../billing/read-schemas';
import { accountState, count, ex, named, timestamp, unixMs } from './common';

const day = z.string().describe('`YYYY-MM-DD` (UTC)');

export const billingSummary = named(
  'BillingSummary',
  z.object({
    accountState,
    plan: z.string(),
    suspended: z.boolean(),
    period: z.object({ startedAt: timestamp, endsAt: timestamp.describe("the next month's first instant (exclusive)") }),
    sessions: z.object({
      usedCount: count,
      includedCount: count,
      usedPct: z.number().describe('usedCount / includedCount as a fraction'),
      overageRateCents: z.number(),
    }),
    wallet: z.object({
      balanceUsdCents: z.int(),
      balanceMillicents: z.int(),
      minTopupCents: z.int(),
      maxTopupCents: z.int(),
      cardFeePercent: z.number(),
      cardFeeBasisPoints: z.number(),
      cardFeeFixedCents: z.number(),
      cryptoFeePercent: z.number(),
      cryptoFeeBasisPoints: z.number(),
      cryptoFeeFixedCents: z.number(),
      updatedAt: timestamp,
    }),
    rates: z.object({ recordingPerMinuteCents: z.number(), observabilityPer1kEventsCents: z.number() }),
    dailyCap: count,
  }),
  {
    example: {
      accountState: 'paid',
      plan: 'free',
      suspended: false,
      period: { startedAt: '2026-11-01T00:00:00.000Z', endsAt: '2026-12-01T00:00:00.000Z' },
      sessions: { usedCount: 123, includedCount: 10_000, usedPct: 0.0123, overageRateCents: 0.05 },
      wallet: {
        balanceUsdCents: 2500,
        balanceMillicents: 2_500_000,
        minTopupCents: 500,
        maxTopupCents: 2_500_000,
        cardFeePercent: 2.9,
        cardFeeBasisPoints: 0,
        cardFeeFixedCents: 30,
        cryptoFeePercent: 1.5,
        cryptoFeeBasisPoints: 0,
        cryptoFeeFixedCents: 0,
        updatedAt: ex.at,
      },
      rates: { recordingPerMinuteCents: 0.7, observabilityPer1kEventsCents: 5 },
      dailyCap: 100_000,
    },
  },
);

export const creditBalance = z.object({ workspaceId: z.string(), balanceUsdCents: z.int(), balanceMillicents: z.int(), updatedAt: timestamp });

export const billingUsage = z.object({
  days: z.int(),
  series: z.array(
    z.object({ day, sessions: count, bytesIn: count, bytesOut: count, totalBytes: count, billedCents: z.int(), billedMillicents: z.int(), errored: count }),
  ),
  totals: z.object({ sessions: count, bytes: count, billedCents: z.int(), billedMillicents: z.int(), errored: count }),
  breakdown: z
    .record(z.string(), z.int())
    .describe("the window's ledger summed per kind, signed as stored: `sessionMillicents`, `recordingMillicents`, …, `grantMillicents`"),
});

export const ledger = z.object({
  rows: z.array(
    z.object({
      workspaceId: z.string(),
      day,
      kind: z.enum(LEDGER_KINDS),
      count,
      totalMillicents: z.int().describe('negative for charges and refunds'),
      updatedAt: unixMs,
    }),
  ),
});

export const transaction = named(
  'Transaction',
  z.object({
    id: z.string(),
    provider: z.string().describe('`stripe` or `test`'),
    providerTxnId: z.string().nullable(),
    amountUsdCents: z.int(),
    status: z.string().describe('top-ups: `pending`, `paid`, `failed`, `expired`, `partially_refunded`, `refunded`; refunds: `refunded`'),
    kind: z.string().describe('`topup` or `refund`'),
    receiptUrl: z.string().nullable(),
    createdAt: timestamp,
    paidAt: timestamp.nullable(),
    refundedAt: timestamp.nullable(),
    creditCents: z.int(),
    feeCents: z.int(),
    chargeCents: z.int(),
    topupId: z.string().nullable(),
  }),
  {
    example: {
      id: 'cm3kq4n8p000ca8s2x7c6v5b4',
      provider: 'stripe',
      providerTxnId: 'cs_test_a1B2c3D4',
      amountUsdCents: 2500,
      status: 'paid',
      kind: 'topup',
      receiptUrl: null,
      createdAt: ex.at,
      paidAt: ex.later,
      refundedAt: null,
      creditCents: 2500,
      feeCents: 103,
      chargeCents: 2603,
      topupId: null,
    },
  },
);

export const checkout = z.object({
  checkoutUrl: z.string().describe('open it in a browser to pay'),
  creditCents: z.int(),
  feeCents: z.int(),
  chargeCents: z.int(),
  id: z.string(),
  providerTxnId: z.string(),
});

export const webhookOutcome = z.object({ received: z.literal(true), duplicate: z.boolean(), action: z.string() });
