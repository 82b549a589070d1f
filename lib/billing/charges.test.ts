import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { centsOf, recordingBudgetMs, recordingCharge, sessionCharge, sessionCharges, totalOf, traceBudgetEvents, traceCharge } from './charges';
import { connectPaymentRefusal } from './gates';
import { publicRates } from './rates';

test('a session costs nothing within the free 10,000 of its month and 0.0005 USD (50 millicents) after', () => {
  assert.equal(sessionCharge(null), 0n);
  assert.equal(sessionCharge(1), 0n);
  assert.equal(sessionCharge(10_000), 0n);
  assert.equal(sessionCharge(10_001), 50n);
  assert.equal(sessionCharge(2_000_000), 50n);
});

test('recording is 0.007 USD a minute billed per started second, rounded up to the millicent over the whole recording', () => {
  assert.equal(recordingCharge(0), 0n);
  assert.equal(recordingCharge(-5), 0n);
  assert.equal(recordingCharge(1), 12n); // 1 s: 700/60 = 11.67 → 12
  assert.equal(recordingCharge(1_000), 12n);
  assert.equal(recordingCharge(1_001), 24n); // 2 s: 23.33 → 24
  assert.equal(recordingCharge(6_000), 70n);
  assert.equal(recordingCharge(60_000), 700n); // a minute is exactly 0.7 cent
  assert.equal(recordingCharge(3_600_000), 42_000n); // an hour is 42 cents
  // Per-second billing never charges more than a millicent over the exact per-second price.
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 4 * 3_600_000 }), (ms) => {
      const seconds = Math.ceil(ms / 1000);
      const exact = (seconds * 700) / 60;
      const charged = Number(recordingCharge(ms));
      return charged >= exact && charged - exact < 1;
    }),
  );
});

test('traces are 0.05 USD per 1,000 events: 5 millicents an event', () => {
  assert.equal(traceCharge(0), 0n);
  assert.equal(traceCharge(1), 5n);
  assert.equal(traceCharge(1_000), 5_000n);
  assert.equal(traceCharge(2_000_000), 10_000_000n); // the capture cap costs 100 USD
});

test('a recording budget stops before its charge would use up the balance', () => {
  assert.equal(recordingBudgetMs(0n), 0);
  assert.equal(recordingBudgetMs(-100n), 0);
  assert.equal(recordingBudgetMs(12n), 0); // one second would cost the whole 12 millicents
  assert.equal(recordingBudgetMs(13n), 1_000);
  fc.assert(
    fc.property(fc.bigInt({ min: 1n, max: 10_000_000_000n }), (balance) => {
      const budget = recordingBudgetMs(balance);
      return recordingCharge(budget) < balance && recordingCharge(budget + 1_000) >= balance;
    }),
  );
});

test("a session's charges list only what costs something, and total", () => {
  assert.deepEqual(sessionCharges({ monthOrdinal: 5 }), []);
  const charges = sessionCharges({ monthOrdinal: 10_001, recordedMs: 60_000, traceEvents: 10 });
  assert.deepEqual(charges, [
    { kind: 'session', millicents: 50n },
    { kind: 'recording', millicents: 700n },
    { kind: 'observability', millicents: 50n },
  ]);
  assert.equal(totalOf(charges), 800n);
});

test('whole cents round half away from zero', () => {
  assert.equal(centsOf(0n), 0);
  assert.equal(centsOf(50n), 0);
  assert.equal(centsOf(499n), 0);
  assert.equal(centsOf(500n), 1);
  assert.equal(centsOf(1_499n), 1);
  assert.equal(centsOf(-500n), -1);
  assert.equal(centsOf(-499n), 0);
  assert.equal(centsOf(2_500_000_000n), 2_500_000);
});

test('the public rates are the documented ones', () => {
  assert.deepEqual(publicRates, { overageRateCents: 0.05, recordingPerMinuteCents: 0.7, observabilityPer1kEventsCents: 5 });
});

test('402 rules: suspended; paid features need a positive balance; the monthly ceiling needs one too; enterprise is never refused for money', () => {
  const wallet = { suspended: false, enterprise: false, balanceMillicents: 0n, monthSessions: 0 };
  assert.equal(connectPaymentRefusal(wallet, []), null);
  assert.match(connectPaymentRefusal({ ...wallet, suspended: true }, [])!, /suspended/);
  assert.match(connectPaymentRefusal({ ...wallet, suspended: true, enterprise: true }, [])!, /suspended/);
  assert.match(connectPaymentRefusal(wallet, ['session_record'])!, /session_record needs a positive wallet balance.*\/billing/);
  assert.match(connectPaymentRefusal(wallet, ['session_record', 'observability'])!, /session_record and observability need/);
  assert.equal(connectPaymentRefusal({ ...wallet, balanceMillicents: 1n }, ['session_record']), null);
  assert.equal(connectPaymentRefusal({ ...wallet, monthSessions: 9_999 }, []), null);
  assert.match(connectPaymentRefusal({ ...wallet, monthSessions: 10_000 }, [])!, /10,000 free sessions.*\/billing/);
  assert.match(connectPaymentRefusal({ ...wallet, balanceMillicents: -5n, monthSessions: 10_000 }, [])!, /wallet is empty/);
  assert.equal(connectPaymentRefusal({ ...wallet, balanceMillicents: 1n, monthSessions: 50_000 }, []), null);
  assert.equal(connectPaymentRefusal({ ...wallet, enterprise: true, monthSessions: 50_000 }, ['session_record']), null);
});

test('the events a balance pays for keep the trace charge below it', () => {
  assert.equal(traceBudgetEvents(0n), 0);
  assert.equal(traceBudgetEvents(-10n), 0);
  assert.equal(traceBudgetEvents(5n), 0); // one event would use it all up
  assert.equal(traceBudgetEvents(6n), 1);
  assert.equal(traceBudgetEvents(5_001n), 1_000);
  for (const balance of [6n, 999n, 5_001n, 123_457n]) {
    const n = traceBudgetEvents(balance);
    assert.ok(traceCharge(n) < balance && traceCharge(n + 1) >= balance, `balance ${balance}: ${n} events`);
  }
});
