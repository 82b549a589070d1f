// The processor's card fee, passed on to the payer by grossing up the charge so that the wallet
// receives exactly the credit asked for (docs/billing.md, Fees). Settings come from the
// environment (README, Configuration); the defaults are Stripe's standard card pricing.
import { settings } from '../config/settings';

export interface FeeSettings {
  /** Percent of the charge, e.g. 2.9 (two decimals at most count). */
  percent: number;
  /** Further basis points of the charge (1 bp = 0.01 %), e.g. 150 for an international card. */
  basisPoints: number;
  /** Fixed cents per charge. */
  fixedCents: number;
}

export interface FeeTable {
  card: FeeSettings;
  crypto: FeeSettings;
}

/** The fees as configured (lib/config/service.ts, FEE_SETTINGS). */
export function feeTable(): FeeTable {
  const s = settings();
  return {
    card: { percent: s.cardFeePercent, basisPoints: s.cardFeeBasisPoints, fixedCents: s.cardFeeFixedCents },
    crypto: { percent: s.cryptoFeePercent, basisPoints: s.cryptoFeeBasisPoints, fixedCents: s.cryptoFeeFixedCents },
  };
}

/** The fee's proportional part in basis points (2.9 % + 150 bp = 440 bp). */
export const rateBasisPoints = (fees: FeeSettings) => Math.round(fees.percent * 100) + Math.round(fees.basisPoints);

/** What the processor keeps of a charge: the proportional part rounded to the nearest cent, plus the fixed fee. */
export function processorFee(chargeCents: number, fees: FeeSettings): number {
  return Math.round((chargeCents * rateBasisPoints(fees)) / 10_000) + Math.round(fees.fixedCents);
}

export interface Quote {
  creditCents: number;
  feeCents: number;
  chargeCents: number;
}

/**
 * The smallest whole-cent charge whose processor fee (processorFee, which rounds the proportional
 * part to the nearest cent) leaves at least the credit; fee = charge − credit. Start from
 * ceil((credit + fixed) / (1 − rate)), exact in integers, which always suffices; because the
 * processor rounds its fee half the time down, one cent less often suffices too, so step down
 * while it does.
 */
export function quoteTopup(creditCents: number, fees: FeeSettings): Quote {
  const bp = rateBasisPoints(fees);
  if (bp >= 10_000) throw new Error('the card fee must be below 100 %');
  const numerator = BigInt(creditCents + Math.round(fees.fixedCents)) * 10_000n;
  const denominator = BigInt(10_000 - bp);
  let chargeCents = Number((numerator + denominator - 1n) / denominator);
  while (chargeCents > creditCents && chargeCents - 1 - processorFee(chargeCents - 1, fees) >= creditCents) chargeCents -= 1;
  return { creditCents, feeCents: chargeCents - creditCents, chargeCents };
}
