// The card-fee gross-up: for every top-up the API accepts and several fee settings, the quoted
// charge leaves at least the credit after the processor's fee, and one cent less would not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { feeTable, processorFee, quoteTopup, type FeeSettings } from './fees';
import { TOPUP_MAX_CENTS, TOPUP_MIN_CENTS } from './rates';
import { readSettings } from '../config/settings';
import { setEnv } from '../config/testing';

const SETTINGS: FeeSettings[] = [
  { percent: 2.9, basisPoints: 0, fixedCents: 30 }, // Stripe's standard card pricing (the default)
  { percent: 2.9, basisPoints: 150, fixedCents: 30 }, // plus an international card
  { percent: 1.5, basisPoints: 0, fixedCents: 0 }, // the crypto default
  { percent: 3.49, basisPoints: 0, fixedCents: 49 },
  { percent: 0, basisPoints: 0, fixedCents: 0 }, // no fee at all
  { percent: 0, basisPoints: 0, fixedCents: 25 }, // fixed only
  { percent: 49.99, basisPoints: 0, fixedCents: 10_000 }, // the extremes the settings allow
];

for (const fees of SETTINGS) {
  test(`gross-up is sufficient and minimal for every credit from ${TOPUP_MIN_CENTS} to ${TOPUP_MAX_CENTS} at ${fees.percent} % + ${fees.basisPoints} bp + ${fees.fixedCents} ¢`, () => {
    for (let credit = TOPUP_MIN_CENTS; credit <= TOPUP_MAX_CENTS; credit++) {
      const { creditCents, feeCents, chargeCents } = quoteTopup(credit, fees);
      if (creditCents !== credit || chargeCents !== credit + feeCents || feeCents < 0) {
        assert.fail(`quote of ${credit}: ${JSON.stringify({ creditCents, feeCents, chargeCents })}`);
      }
      if (processorFee(chargeCents, fees) > feeCents) {
        assert.fail(`credit ${credit}: the processor keeps ${processorFee(chargeCents, fees)} of ${chargeCents}, more than the fee ${feeCents}`);
      }
      if (chargeCents - 1 - processorFee(chargeCents - 1, fees) >= credit) {
        assert.fail(`credit ${credit}: a charge of ${chargeCents - 1} would already leave the credit`);
      }
    }
  });
}

test('the default card fee: $5 credit costs $5.46, $100 costs $103.30', () => {
  const card = { percent: 2.9, basisPoints: 0, fixedCents: 30 };
  assert.deepEqual(quoteTopup(500, card), { creditCents: 500, feeCents: 46, chargeCents: 546 });
  assert.deepEqual(quoteTopup(10_000, card), { creditCents: 10_000, feeCents: 330, chargeCents: 10_330 });
});

test('a fee of 100 % or more is refused', () => {
  assert.throws(() => quoteTopup(500, { percent: 50, basisPoints: 5_000, fixedCents: 0 }), /below 100 %/);
});

test('feeTable reads the settings from the environment; nonsense is refused', () => {
  const unset = Object.fromEntries(
    Object.keys(process.env)
      .filter((name) => name.startsWith('BILLING_'))
      .map((name) => [name, undefined]),
  );
  const restores = [setEnv(unset)];
  try {
    assert.deepEqual(feeTable().card, { percent: 2.9, basisPoints: 0, fixedCents: 30 });
    restores.push(setEnv({ BILLING_CARD_FEE_PERCENT: '3.1', BILLING_CARD_FEE_BASIS_POINTS: '150', BILLING_CARD_FEE_FIXED_CENTS: '0' }));
    assert.deepEqual(feeTable().card, { percent: 3.1, basisPoints: 150, fixedCents: 0 });
  } finally {
    for (const restore of restores.reverse()) restore();
  }
  assert.throws(
    () => readSettings({ BILLING_CRYPTO_FEE_PERCENT: '-1' }),
    /^SettingsError: BILLING_CRYPTO_FEE_PERCENT must be a number from 0 to 50, got "-1"$/,
  );
});
