// The billing read endpoints over real HTTP: GET /v1/billing/summary, /v1/credits/balance,
// /v1/billing/usage and /v1/billing/ledger. Money is set up through the ledger's one posting
// function and sessions as SessionLog rows, on days counted back from today (UTC), and every
// figure is checked to the millicent; any member reads them, a stranger never sees them, and
// errors are the billing format (`error` a plain string, invalid input `bad_request`).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { call, expectOk, newUser, signIn, type Res, type TestUser } from '../support/api';
import { seedMember, seedSession, seedUsage } from '../support/seed';
import { post, type Entry } from '../../lib/billing/ledger';
import { grantCredits } from '../../lib/billing/grants';
import { db } from '../../lib/db';

const DAY_MS = 86_400_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
/** Noon (UTC) of the day `n` days before today, and that day as YYYY-MM-DD. */
const noon = (n: number) => new Date(today - n * DAY_MS + 12 * 3_600_000);
const day = (n: number) => noon(n).toISOString().slice(0, 10);

function expectBillingError(res: Res, status: number, code: string) {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.body?.ok, false);
  assert.equal(res.body?.error, code, `error is the plain string ${code}: ${JSON.stringify(res.body)}`);
  assert.equal(typeof res.body?.message, 'string');
  assert.ok(res.body.message.length > 0);
}

const charge = (kind: Entry['kind'], millicents: number, cause = `test:${randomUUID()}`): Entry => ({ kind, amountMillicents: BigInt(millicents), cause });

/** A session with no router (any router's sessions count), ended as it started unless `active`. */
async function sessionRow(
  workspaceId: string,
  startedAt: Date,
  data: { state?: 'closed' | 'errored' | 'active'; bytesIn?: number; bytesOut?: number; playground?: boolean } = {},
) {
  return seedSession(workspaceId, null, {
    startedAt,
    state: data.state ?? 'closed',
    bytesIn: BigInt(data.bytesIn ?? 0),
    bytesOut: BigInt(data.bytesOut ?? 0),
    playground: data.playground ?? false,
  });
}

let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
/** A's balance after the setup, in millicents. */
let balance = 0;

before(async () => {
  [owner, member, stranger] = await Promise.all([newUser('bill-owner'), newUser('bill-member'), newUser('bill-stranger')]);
  await seedMember(owner.workspaceId, member.userId, 'member');
  const a = owner.workspaceId;
  // Sessions: two yesterday (one errored), one today, one five days ago; a playground session and
  // one a hundred days ago that the series leaves out; the stranger's own session.
  await Promise.all([
    sessionRow(a, noon(1), { bytesIn: 1_000, bytesOut: 2_000 }),
    sessionRow(a, noon(1), { state: 'errored', bytesIn: 10, bytesOut: 20 }),
    sessionRow(a, new Date(today + 60_000), { state: 'active', bytesIn: 5 }),
    sessionRow(a, noon(5), { bytesOut: 7 }),
    sessionRow(a, noon(1), { bytesIn: 999_999, playground: true }),
    sessionRow(a, noon(100), { bytesIn: 123 }),
    sessionRow(stranger.workspaceId, noon(1), { bytesIn: 4_444, state: 'errored' }),
  ]);
  // Money: a top-up five days ago; session, recording and trace charges yesterday; BYOK overage,
  // reseller and a refund today; a grant a hundred days ago; a charge of the stranger's.
  await post(db, a, [charge('topup', 500_000)], noon(5));
  await post(db, a, [charge('session', -50), charge('recording', -1_167), charge('observability', -5_000)], noon(1));
  await post(db, a, [charge('byok_overage', -300), charge('reseller', -200), charge('refund', -10_000)], new Date(today + 60_000));
  await post(db, a, [charge('grant', 1_000)], noon(100));
  await post(db, stranger.workspaceId, [charge('session', -99_999)], noon(1));
  balance = 500_000 - 50 - 1_167 - 5_000 - 300 - 200 - 10_000 + 1_000;
  await seedUsage(a, 123, new Date(today).toISOString().slice(0, 7));
});

test('GET /v1/billing/summary: account state, this month, sessions used of 10,000, wallet, fees and rates', async () => {
  const summary = expectOk(await call('GET', '/v1/billing/summary', { auth: { token: owner.token } }));
  const now = new Date();
  assert.deepEqual(summary.period, {
    startedAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
    endsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
  });
  assert.equal(summary.accountState, 'paid');
  assert.equal(summary.plan, 'free');
  assert.equal(summary.suspended, false);
  assert.deepEqual(summary.sessions, { usedCount: 123, includedCount: 10_000, usedPct: 0.0123, overageRateCents: 0.05 });
  assert.deepEqual(summary.rates, { recordingPerMinuteCents: 0.7, observabilityPer1kEventsCents: 5 });
  assert.equal(summary.dailyCap, 100_000);
  const { wallet } = summary;
  assert.equal(wallet.balanceUsdCents, Math.round(balance / 1_000));
  assert.equal(wallet.balanceMillicents, balance);
  assert.equal(wallet.minTopupCents, 500);
  assert.equal(wallet.maxTopupCents, 2_500_000);
  for (const field of ['cardFeePercent', 'cardFeeBasisPoints', 'cardFeeFixedCents', 'cryptoFeePercent', 'cryptoFeeBasisPoints', 'cryptoFeeFixedCents']) {
    assert.equal(typeof wallet[field], 'number', field);
    assert.ok(wallet[field] >= 0, field);
  }
  assert.match(wallet.updatedAt, ISO);
  assert.deepEqual(Object.keys(summary).sort(), ['accountState', 'dailyCap', 'period', 'plan', 'rates', 'sessions', 'suspended', 'wallet']);

  // A fresh workspace: free, nothing used, an empty wallet.
  const fresh = expectOk(await call('GET', '/v1/billing/summary', { auth: { token: stranger.token } }));
  assert.equal(fresh.accountState, 'free');
  assert.deepEqual(fresh.sessions, { usedCount: 0, includedCount: 10_000, usedPct: 0, overageRateCents: 0.05 });
  assert.equal(fresh.wallet.balanceUsdCents, -100);
  assert.equal(fresh.wallet.balanceMillicents, -99_999);
  assert.equal(fresh.dailyCap, 5_000);
});

test('GET /v1/credits/balance: the workspace, its balance in whole cents and when it last moved', async () => {
  const res = expectOk(await call('GET', '/v1/credits/balance', { auth: { token: owner.token } }));
  assert.equal(res.workspaceId, owner.workspaceId);
  assert.equal(res.balanceUsdCents, Math.round(balance / 1_000));
  assert.equal(res.balanceMillicents, balance);
  assert.match(res.updatedAt, ISO);
  assert.deepEqual(Object.keys(res).sort(), ['balanceMillicents', 'balanceUsdCents', 'updatedAt', 'workspaceId']);
});

test('GET /v1/billing/usage: one row per UTC day oldest first, empty days included; sessions by start day; billed = charges drawn that day', async () => {
  const usage = expectOk(await call('GET', '/v1/billing/usage?days=7', { auth: { token: owner.token } }));
  assert.equal(usage.days, 7);
  assert.equal(usage.series.length, 7);
  const days = usage.series.map((r: { day: string }) => r.day);
  for (let i = 1; i < days.length; i++) assert.equal(Date.parse(days[i]) - Date.parse(days[i - 1]), DAY_MS, 'consecutive days');
  const at = (n: number) => usage.series.find((r: { day: string }) => r.day === day(n));
  assert.equal(days.at(-1), new Date().toISOString().slice(0, 10), 'ends today');

  assert.deepEqual(at(1), {
    day: day(1),
    sessions: 2,
    bytesIn: 1_010,
    bytesOut: 2_020,
    totalBytes: 3_030,
    billedCents: 6,
    billedMillicents: 6_217,
    errored: 1,
  });
  assert.deepEqual(at(0), { day: day(0), sessions: 1, bytesIn: 5, bytesOut: 0, totalBytes: 5, billedCents: 1, billedMillicents: 500, errored: 0 });
  assert.deepEqual(at(5), { day: day(5), sessions: 1, bytesIn: 0, bytesOut: 7, totalBytes: 7, billedCents: 0, billedMillicents: 0, errored: 0 });
  assert.deepEqual(at(3), { day: day(3), sessions: 0, bytesIn: 0, bytesOut: 0, totalBytes: 0, billedCents: 0, billedMillicents: 0, errored: 0 });
  assert.deepEqual(usage.totals, { sessions: 4, bytes: 3_042, billedCents: 7, billedMillicents: 6_717, errored: 1 });
  assert.deepEqual(usage.breakdown, {
    sessionMillicents: -50,
    recordingMillicents: -1_167,
    observabilityMillicents: -5_000,
    byokOverageMillicents: -300,
    resellerMillicents: -200,
    topupMillicents: 500_000,
    refundMillicents: -10_000,
    grantMillicents: 0,
  });

  // A shorter window leaves the top-up of five days ago out; the default is 30 days.
  const short = expectOk(await call('GET', '/v1/billing/usage?days=2', { auth: { token: owner.token } }));
  assert.deepEqual(
    short.series.map((r: { day: string }) => r.day),
    [day(1), day(0)],
  );
  assert.equal(short.breakdown.topupMillicents, 0);
  assert.equal(short.totals.billedMillicents, 6_717);
  const standard = expectOk(await call('GET', '/v1/billing/usage', { auth: { token: owner.token } }));
  assert.equal(standard.days, 30);
  assert.equal(standard.series.length, 30);
  assert.equal(standard.totals.sessions, 4);
  // Ninety days still leave out the session and the grant of a hundred days ago.
  const longest = expectOk(await call('GET', '/v1/billing/usage?days=90', { auth: { token: owner.token } }));
  assert.equal(longest.series.length, 90);
  assert.equal(longest.totals.sessions, 4);
  assert.equal(longest.breakdown.grantMillicents, 0);
});

test('GET /v1/billing/ledger: rows newest day first, filtered by months, kind and sinceDay, at most limit', async () => {
  const { rows } = expectOk(await call('GET', '/v1/billing/ledger', { auth: { token: owner.token } }));
  assert.deepEqual(
    rows.map((r: { day: string; kind: string }) => `${r.day} ${r.kind}`),
    [
      `${day(0)} byok_overage`,
      `${day(0)} reseller`,
      `${day(0)} refund`,
      `${day(1)} session`,
      `${day(1)} recording`,
      `${day(1)} observability`,
      `${day(5)} topup`,
    ],
  );
  const topup = rows.at(-1);
  assert.deepEqual(
    { ...topup, updatedAt: 0 },
    { workspaceId: owner.workspaceId, day: day(5), kind: 'topup', count: 1, totalMillicents: 500_000, updatedAt: 0 },
  );
  assert.equal(typeof topup.updatedAt, 'number');
  assert.ok(Math.abs(topup.updatedAt - noon(5).getTime()) < 1_000, 'Unix ms of the last posting');
  assert.equal(rows[3].totalMillicents, -50, 'charges are negative');

  const get = async (query: string) =>
    expectOk(await call('GET', `/v1/billing/ledger?${query}`, { auth: { token: owner.token } })).rows as {
      day: string;
      kind: string;
      totalMillicents: number;
    }[];
  assert.deepEqual(
    (await get('limit=2')).map((r) => r.kind),
    ['byok_overage', 'reseller'],
  );
  assert.deepEqual(
    (await get('kind=observability')).map((r) => [r.day, r.totalMillicents]),
    [[day(1), -5_000]],
  );
  assert.deepEqual((await get(`sinceDay=${day(1)}`)).length, 6);
  assert.deepEqual(await get(`sinceDay=${day(1)}&kind=topup`), []);
  // The grant of a hundred days ago is outside three months (the default) and inside twelve.
  assert.ok(!(await get('')).some((r) => r.kind === 'grant'));
  assert.deepEqual(
    (await get('months=12&kind=grant')).map((r) => [r.day, r.totalMillicents]),
    [[day(100), 1_000]],
  );
  assert.deepEqual((await get('months=12&limit=400')).length, 8);
  // months=1 is this calendar month only.
  const thisMonth = new Date().toISOString().slice(0, 7);
  assert.ok((await get('months=1')).every((r) => r.day.startsWith(thisMonth)));
});

test('invalid query values are 400 bad_request, the error a plain string with details', async () => {
  const auth = { token: owner.token };
  for (const query of ['days=0', 'days=91', 'days=1.5', 'days=abc', 'days=', 'days=0x10']) {
    const res = await call('GET', `/v1/billing/usage?${query}`, { auth });
    expectBillingError(res, 400, 'bad_request');
    assert.equal(res.body.details[0].path, 'days', query);
  }
  for (const [query, path] of [
    ['limit=0', 'limit'],
    ['limit=401', 'limit'],
    ['months=0', 'months'],
    ['months=13', 'months'],
    ['kind=charge', 'kind'],
    ['sinceDay=2026-02-30', 'sinceDay'],
    ['sinceDay=yesterday', 'sinceDay'],
    ['sinceDay=2026-1-5', 'sinceDay'],
  ] as const) {
    const res = await call('GET', `/v1/billing/ledger?${query}`, { auth });
    expectBillingError(res, 400, 'bad_request');
    assert.equal(res.body.details[0].path, path, query);
  }
  expectOk(await call('GET', '/v1/billing/ledger?limit=400&months=12&kind=grant&sinceDay=2024-02-29', { auth }));
});

test('any member reads them; no credentials is 401; another workspace is not_a_member; a cookie session reads them too', async () => {
  const headers = { 'x-workspace-id': owner.workspaceId };
  const mine = expectOk(await call('GET', '/v1/billing/summary', { auth: { token: member.token }, headers }));
  assert.equal(mine.wallet.balanceMillicents, balance);
  assert.equal(expectOk(await call('GET', '/v1/credits/balance', { auth: { token: member.token }, headers })).workspaceId, owner.workspaceId);
  assert.equal(expectOk(await call('GET', '/v1/billing/usage?days=7', { auth: { token: member.token }, headers })).totals.billedMillicents, 6_717);
  assert.equal(expectOk(await call('GET', '/v1/billing/ledger', { auth: { token: member.token }, headers })).rows.length, 7);
  assert.equal(expectOk(await call('GET', '/v1/billing/summary', { auth: await signIn(member.email), headers })).wallet.balanceMillicents, balance);

  for (const path of ['/v1/billing/summary', '/v1/credits/balance', '/v1/billing/usage', '/v1/billing/ledger']) {
    expectBillingError(await call('GET', path), 401, 'unauthenticated');
    expectBillingError(await call('GET', path, { auth: { token: 'acct_not-a-real-token' } }), 401, 'unauthenticated');
    expectBillingError(await call('GET', path, { auth: { token: stranger.token }, headers }), 403, 'not_a_member');
  }
});

test("another workspace's sessions and money never appear", async () => {
  const auth = { token: stranger.token };
  const usage = expectOk(await call('GET', '/v1/billing/usage?days=7', { auth }));
  assert.deepEqual(usage.totals, { sessions: 1, bytes: 4_444, billedCents: 100, billedMillicents: 99_999, errored: 1 });
  assert.equal(usage.breakdown.topupMillicents, 0);
  const { rows } = expectOk(await call('GET', '/v1/billing/ledger?months=12', { auth }));
  assert.deepEqual(
    rows.map((r: { workspaceId: string; kind: string; totalMillicents: number }) => [r.workspaceId, r.kind, r.totalMillicents]),
    [[stranger.workspaceId, 'session', -99_999]],
  );
  assert.equal(expectOk(await call('GET', '/v1/credits/balance', { auth })).balanceMillicents, -99_999);

  // …and the owner's figures hold nothing of the stranger's.
  const own = expectOk(await call('GET', '/v1/billing/usage?days=7', { auth: { token: owner.token } }));
  assert.equal(own.totals.bytes, 3_042);
  const ownRows = expectOk(await call('GET', '/v1/billing/ledger?months=12&limit=400', { auth: { token: owner.token } })).rows;
  assert.ok(ownRows.every((r: { workspaceId: string }) => r.workspaceId === owner.workspaceId));
});

test('a grant that takes the balance above zero makes the workspace paid and lifts the daily cap at once; back to zero, both return', async () => {
  const user = await newUser('bill-cap');
  const auth = { token: user.token };
  const state = async () => expectOk(await call('GET', '/v1/me', { auth })).activeWorkspaceAccountState;
  const cap = async () => {
    const res = await call('GET', '/v1/sessions', { auth });
    expectOk(res);
    return res.headers.get('x-ratelimit-limit');
  };
  const summary = async () => expectOk(await call('GET', '/v1/billing/summary', { auth }));
  assert.equal(await state(), 'free');
  assert.equal(await cap(), '5000');

  await post(db, user.workspaceId, [charge('session', -1_000)]);
  await grantCredits(user.workspaceId, 1, 'to zero', null); // exactly zero is not above zero
  assert.equal((await summary()).wallet.balanceMillicents, 0);
  assert.equal(await state(), 'free');
  assert.equal(await cap(), '5000');

  await grantCredits(user.workspaceId, 1, 'above zero', null);
  assert.equal(await state(), 'paid');
  assert.equal(await cap(), '100000');
  const paid = await summary();
  assert.deepEqual([paid.accountState, paid.dailyCap, paid.wallet.balanceUsdCents], ['paid', 100_000, 1]);

  await post(db, user.workspaceId, [charge('recording', -1_000)]);
  assert.equal(await state(), 'free');
  assert.equal(await cap(), '5000');
  assert.deepEqual([(await summary()).accountState, (await summary()).dailyCap], ['free', 5_000]);
  const { rows } = expectOk(await call('GET', `/v1/billing/ledger?kind=grant`, { auth }));
  assert.deepEqual(
    rows.map((r: { count: number; totalMillicents: number }) => [r.count, r.totalMillicents]),
    [[2, 2_000]],
  );
});
