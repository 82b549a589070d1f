// The processor's card fee, passed on to the payer by grossing up the charge so that the wallet
// receives exactly the credit asked for (docs/billing.md, Fees). Settings come from the
// environment (README, Environment); the defaults are Stripe's standard card pricing.

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

function setting(name: string, fallback: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > max) throw new Error(`${name} must be a number from 0 to ${max}`);
  return value;
}

export function feeTable(): FeeTable {
  return {
    card: {
      percent: setting('BILLING_CARD_FEE_PERCENT', 2.9, 50),
      basisPoints: setting('BILLING_CARD_FEE_BASIS_POINTS', 0, 5_000),
      fixedCents: setting('BILLING_CARD_FEE_FIXED_CENTS', 30, 10_000),
    },
    crypto: {
      percent: setting('BILLING_CRYPTO_FEE_PERCENT', 1.5, 50),
      basisPoints: setting('BILLING_CRYPTO_FEE_BASIS_POINTS', 0, 5_000),
      fixedCents: setting('BILLING_CRYPTO_FEE_FIXED_CENTS', 0, 10_000),
    },
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
