// The wallet's ledger against the real database: balance = sum of entries = sum of the daily
// ledger, to the millicent, under 1,000 concurrent charges, top-ups, grants and refunds over
// several workspaces, with causes repeated (nothing doubled) and some posted inside transactions
// that roll back (nothing half-written).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { newUser } from '../support/api';
import { post, type Entry } from '../../lib/billing/ledger';
import { db } from '../../lib/db';

// A thousand operations share the test's ten database connections: transactions wait their turn.
const TX = { maxWait: 60_000, timeout: 60_000 };

async function sums(workspaceId: string) {
  const [row] = await db.$queryRaw<{ entries: bigint | null; entryCount: number; ledger: bigint | null; ledgerCount: number | null; wallet: bigint | null }[]>`
    SELECT (SELECT sum("amountMillicents")::bigint FROM "WalletEntry" WHERE "workspaceId" = ${workspaceId}) AS "entries",
           (SELECT count(*)::int FROM "WalletEntry" WHERE "workspaceId" = ${workspaceId}) AS "entryCount",
           (SELECT sum("totalMillicents")::bigint FROM "LedgerEntry" WHERE "workspaceId" = ${workspaceId}) AS "ledger",
           (SELECT sum("count")::int FROM "LedgerEntry" WHERE "workspaceId" = ${workspaceId}) AS "ledgerCount",
           (SELECT "balanceMillicents" FROM "Wallet" WHERE "workspaceId" = ${workspaceId}) AS "wallet"`;
  return { entries: row!.entries ?? 0n, entryCount: row!.entryCount, ledger: row!.ledger ?? 0n, ledgerCount: row!.ledgerCount ?? 0, wallet: row!.wallet ?? 0n };
}

test('1,000 concurrent charges, top-ups, grants and refunds: balance = sum of entries = sum of the daily ledger, nothing lost or doubled', async () => {
  const workspaces = await Promise.all([1, 2, 3, 4, 5].map(async (n) => (await newUser(`ledger${n}`)).workspaceId));
  const expected = new Map<string, bigint>(workspaces.map((w) => [w, 0n]));
  const expectedCount = new Map<string, number>(workspaces.map((w) => [w, 0]));
  const kinds: Array<{ kind: Entry['kind']; sign: bigint }> = [
    { kind: 'session', sign: -1n },
    { kind: 'recording', sign: -1n },
    { kind: 'observability', sign: -1n },
    { kind: 'topup', sign: 1n },
    { kind: 'grant', sign: 1n },
    { kind: 'refund', sign: -1n },
  ];
  // A deterministic mix: every 7th operation repeats an earlier cause, every 11th runs in a
  // transaction that then fails (its entry must vanish with it).
  const operations: Array<() => Promise<unknown>> = [];
  const causes: Array<{ workspaceId: string; entry: Entry }> = [];
  for (let i = 0; i < 1_000; i++) {
    const workspaceId = workspaces[i % workspaces.length]!;
    if (i % 7 === 6 && causes.length > 0) {
      const again = causes[(i * 31) % causes.length]!;
      operations.push(() => post(db, again.workspaceId, [again.entry]));
      continue;
    }
    const { kind, sign } = kinds[(i * 13) % kinds.length]!;
    const amount = sign * BigInt(1 + ((i * 7919) % (kind === 'topup' ? 2_500_000_000 : 50_000)));
    const entry: Entry = { kind, amountMillicents: amount, cause: `test:${randomUUID()}` };
    if (i % 11 === 10) {
      operations.push(() =>
        db
          .$transaction(async (tx) => {
            await post(tx, workspaceId, [entry]);
            throw new Error('rolled back on purpose');
          }, TX)
          .catch((error: Error) => assert.equal(error.message, 'rolled back on purpose')),
      );
      continue;
    }
    causes.push({ workspaceId, entry });
    expected.set(workspaceId, expected.get(workspaceId)! + amount);
    expectedCount.set(workspaceId, expectedCount.get(workspaceId)! + 1);
    operations.push(() => (i % 5 === 0 ? db.$transaction(async (tx) => post(tx, workspaceId, [entry]), TX) : post(db, workspaceId, [entry])));
  }
  await Promise.all(operations.map((operation) => operation()));

  for (const workspaceId of workspaces) {
    const got = await sums(workspaceId);
    assert.equal(got.entries, expected.get(workspaceId), 'sum of entries = sum of what was posted once');
    assert.equal(got.wallet, got.entries, 'the wallet balance is the sum of its entries, to the millicent');
    assert.equal(got.ledger, got.entries, 'the daily ledger sums to the same');
    assert.equal(got.entryCount, expectedCount.get(workspaceId));
    assert.equal(got.ledgerCount, got.entryCount, 'the daily rows count every entry once');
  }
});

test('a cause posts once: the second post of it moves nothing and says so', async () => {
  const { workspaceId } = await newUser('ledgeronce');
  const entry: Entry = { kind: 'grant', amountMillicents: 1_000_000n, cause: `grant:${randomUUID()}`, note: 'welcome' };
  const first = await post(db, workspaceId, [entry]);
  assert.deepEqual(first, { posted: 1, balanceMillicents: 1_000_000n });
  const again = await post(db, workspaceId, [entry, { kind: 'session', amountMillicents: -50n, cause: `session:${randomUUID()}:session` }]);
  assert.deepEqual(again, { posted: 1, balanceMillicents: 999_950n }, 'only the new cause was posted');
  const rows = await db.ledgerEntry.findMany({ where: { workspaceId }, orderBy: { kind: 'asc' } });
  assert.deepEqual(
    rows.map((r) => [r.kind, r.count, r.totalMillicents]),
    [
      ['session', 1, -50n],
      ['grant', 1, 1_000_000n],
    ],
  );
});

test('ledger entries are append-only: the database refuses to change one', async () => {
  const { workspaceId } = await newUser('ledgerro');
  await post(db, workspaceId, [{ kind: 'grant', amountMillicents: 5n, cause: `grant:${randomUUID()}` }]);
  await assert.rejects(db.walletEntry.updateMany({ where: { workspaceId }, data: { amountMillicents: 5_000_000n } }), /append-only/);
  assert.equal((await sums(workspaceId)).wallet, 5n);
});
