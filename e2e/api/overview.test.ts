// GET /v1/overview over real HTTP against a known workspace: sessions as SessionLog rows on days
// counted back from today (UTC, both edges of a day), data-API history as DataApiUsage rows, and
// real data-API calls through the proxy (one answered, one refused after the key was accepted) so
// the counting path is the product's own. Every figure is checked; any member reads it, a
// stranger never does; the checklist follows what exists, and completes with a data-API call.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectError, expectOk, newUser, signIn, uniqueEmail, type TestUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { eventually, routerKey } from '../support/connect';
import { dataApi, expectStatus } from '../support/data-api';
import { seedDataApiUsage, seedMember, seedProvider, seedSession, seedUsage } from '../support/seed';
import { startTestSite, type TestSite } from '../support/test-site';
import { post } from '../../lib/billing/ledger';
import { db } from '../../lib/db';

const DAY_MS = 86_400_000;
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
/** Noon (UTC) of the day `n` days before today, and that day as YYYY-MM-DD. */
const noon = (n: number) => new Date(today - n * DAY_MS + 12 * 3_600_000);
const day = (n: number) => new Date(today - n * DAY_MS).toISOString().slice(0, 10);
const SESSION_FIELDS = [
  'billedCents',
  'billedMillicents',
  'bytesIn',
  'bytesOut',
  'durationMs',
  'endedAt',
  'errorReason',
  'hasRecording',
  'hasReplay',
  'id',
  'kind',
  'messageCount',
  'profileId',
  'provider',
  'routerId',
  'startedAt',
  'state',
  'totalBytes',
];

let browser: Chromium;
let site: TestSite;
let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let second: { id: string; slug: string; name: string };
const ids: Record<string, string> = {};

interface Row {
  routerId?: string | null;
  slug?: string;
  name?: string;
  state: 'active' | 'closed' | 'errored';
  startedAt: Date;
  playground?: boolean;
}

/** Ended sessions end as they start (zero duration), so each counts on its start's day only. */
async function session(workspaceId: string, key: string, r: Row) {
  const created = await seedSession(workspaceId, r.routerId === undefined ? owner.routerId : r.routerId, {
    providerSlug: r.slug ?? 'alpha',
    providerName: r.name ?? 'Alpha',
    state: r.state,
    startedAt: r.startedAt,
    playground: r.playground ?? false,
  });
  ids[key] = created.id;
}

const overview = (user: TestUser, query = '', headers: Record<string, string> = {}) =>
  call('GET', `/v1/overview${query}`, { auth: { token: user.token }, headers });

before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
  [owner, member, stranger] = await Promise.all([newUser('ov-owner'), newUser('ov-member'), newUser('ov-stranger')]);
  await seedMember(owner.workspaceId, member.userId, 'member');
  second = expectOk(await call('POST', '/v1/routers', { auth: { token: owner.token }, body: { name: 'Second' } }), 201);
  await seedProvider(owner.workspaceId, owner.routerId, { slug: 'chromium', url: browser.wsUrl });
  const a = owner.workspaceId;
  await Promise.all([
    session(a, 'todayMidnight', { state: 'closed', startedAt: new Date(today) }), // the first instant of today
    session(a, 'todayActive', { state: 'active', startedAt: new Date(today + 60_000), name: 'Alpha (new name)' }),
    session(a, 'yesterdayLast', { state: 'closed', startedAt: new Date(today - 1) }), // the last instant of yesterday
    session(a, 'yesterdayErrored', { state: 'errored', startedAt: noon(1) }),
    session(a, 'goneRouter', { routerId: null, slug: 'gone', name: 'Gone', state: 'errored', startedAt: noon(2) }),
    session(a, 'beta1', { routerId: second.id, slug: 'beta', name: 'Beta', state: 'errored', startedAt: noon(5) }),
    session(a, 'beta2', { routerId: second.id, slug: 'beta', name: 'Beta', state: 'errored', startedAt: noon(5) }),
    session(a, 'firstDay', { routerId: second.id, slug: 'beta', name: 'Beta', state: 'closed', startedAt: noon(29) }), // the window's first day
    session(a, 'beforeWindow', { state: 'closed', startedAt: noon(30) }),
    session(a, 'oldActive', { state: 'active', startedAt: noon(40) }), // active now, started before the window
    session(a, 'playground', { state: 'errored', startedAt: noon(1), playground: true }),
    session(stranger.workspaceId, 'strangers', { routerId: stranger.routerId, state: 'errored', startedAt: noon(1) }),
  ]);
  await seedDataApiUsage(a, [
    { routerId: owner.routerId, day: new Date(`${day(2)}T00:00:00Z`), calls: 4, failed: 1 },
    { routerId: second.id, day: new Date(`${day(5)}T00:00:00Z`), calls: 2, failed: 0 },
    { routerId: owner.routerId, day: new Date(`${day(30)}T00:00:00Z`), calls: 100, failed: 100 },
  ]);
  await seedDataApiUsage(stranger.workspaceId, [{ routerId: stranger.routerId, day: new Date(`${day(0)}T00:00:00Z`), calls: 50, failed: 5 }]);
  await seedUsage(a, 123, new Date(today).toISOString().slice(0, 7));
  await post(db, a, [{ kind: 'grant', amountMillicents: 123_456n, cause: `test:overview:${a}` }]);

  // Real calls through the proxy: one answered (counted and billed as a session), one refused
  // after its key was accepted (a failed call), one with a wrong key (nobody's: not counted).
  const key = await routerKey(a, owner.routerId);
  expectStatus(await dataApi('content', key, { url: `${site.url}/basic`, formats: ['text'] }), 200);
  expectStatus(await dataApi('content', key, { url: 'not a url' }), 400);
  expectStatus(await dataApi('content', 'rkey_wrong', { url: `${site.url}/basic` }), 401);
  await eventually(
    async () => {
      const row = await db.dataApiUsage.findUnique({
        where: { workspaceId_day_routerId: { workspaceId: a, day: new Date(`${day(0)}T00:00:00Z`), routerId: owner.routerId } },
      });
      return row?.calls === 1 && row.failed === 1;
    },
    5_000,
    "today's call and failed call counted on the router",
  );
});
after(async () => {
  await Promise.all([browser?.stop(), site?.close()]);
});

test('GET /v1/overview: 30 UTC days zero-filled, totals, active now, errors per provider, routers, wallet, free sessions, latest sessions, checklist', async () => {
  const res = await overview(owner);
  assert.equal(res.headers.get('x-ratelimit-limit'), null, 'not counted against the daily cap');
  const o = expectOk(res);
  assert.deepEqual(Object.keys(o).sort(), [
    'activeSessions',
    'checklist',
    'days',
    'errorsByProvider',
    'freeSessions',
    'latestSessions',
    'routers',
    'series',
    'totals',
    'wallet',
  ]);
  assert.equal(o.days, 30);

  const zero = { sessions: 0, active: 0, closed: 0, errored: 0, dataApiCalls: 0, dataApiFailed: 0 };
  const expected: Record<string, object> = {
    [day(0)]: { sessions: 2, active: 1, closed: 1, errored: 0, dataApiCalls: 1, dataApiFailed: 1 },
    [day(1)]: { sessions: 2, active: 0, closed: 1, errored: 1, dataApiCalls: 0, dataApiFailed: 0 },
    [day(2)]: { sessions: 1, active: 0, closed: 0, errored: 1, dataApiCalls: 4, dataApiFailed: 1 },
    [day(5)]: { sessions: 2, active: 0, closed: 0, errored: 2, dataApiCalls: 2, dataApiFailed: 0 },
    [day(29)]: { sessions: 1, active: 0, closed: 1, errored: 0, dataApiCalls: 0, dataApiFailed: 0 },
  };
  assert.deepEqual(
    o.series,
    Array.from({ length: 30 }, (_, i) => ({ day: day(29 - i), ...zero, ...expected[day(29 - i)] })),
  );
  assert.deepEqual(o.totals, { sessions: 8, active: 1, closed: 3, errored: 4, dataApiCalls: 7, dataApiFailed: 2 });
  assert.equal(o.activeSessions, 2, 'the active session of 40 days ago counts now');

  assert.deepEqual(o.errorsByProvider, [
    { routerId: second.id, providerSlug: 'beta', providerName: 'Beta', sessions: 3, errored: 2 },
    { routerId: owner.routerId, providerSlug: 'alpha', providerName: 'Alpha (new name)', sessions: 4, errored: 1 },
    { routerId: null, providerSlug: 'gone', providerName: 'Gone', sessions: 1, errored: 1 },
  ]);
  assert.deepEqual(o.routers, [
    { id: owner.routerId, slug: 'default', name: 'Default', providerCount: 1, activeSessions: 2, sessions: 4, errored: 1, dataApiCalls: 5, dataApiFailed: 2 },
    { id: second.id, slug: second.slug, name: 'Second', providerCount: 0, activeSessions: 0, sessions: 3, errored: 2, dataApiCalls: 2, dataApiFailed: 0 },
  ]);

  assert.deepEqual(o.wallet, { accountState: 'paid', balanceUsdCents: 123, balanceMillicents: 123_456 });
  const now = new Date();
  assert.deepEqual(o.freeSessions, {
    includedCount: 10_000,
    usedCount: 124,
    remaining: 9_876,
    resetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
  });

  assert.deepEqual(
    o.latestSessions.map((s: { id: string }) => s.id),
    [ids.todayActive, ids.todayMidnight, ids.yesterdayLast, ids.yesterdayErrored, ids.goneRouter],
  );
  for (const s of o.latestSessions) assert.deepEqual(Object.keys(s).sort(), SESSION_FIELDS);
  const [first] = o.latestSessions;
  assert.equal(first.state, 'active');
  assert.equal(first.routerId, owner.routerId);
  assert.deepEqual(first.provider, { id: null, slug: 'alpha', name: 'Alpha (new name)' });
  assert.equal(o.latestSessions[4].routerId, null);

  assert.deepEqual(o.checklist, {
    complete: true,
    items: [
      { id: 'add_provider', done: true },
      { id: 'create_access_token', done: true },
      { id: 'invite_teammate', done: true },
      { id: 'first_session', done: true },
    ],
  });
});

test('the window follows `days`; invalid values are 400 validation_error on days', async () => {
  const week = expectOk(await overview(owner, '?days=7'));
  assert.deepEqual(
    week.series.map((r: { day: string }) => r.day),
    Array.from({ length: 7 }, (_, i) => day(6 - i)),
  );
  assert.deepEqual(week.totals, { sessions: 7, active: 1, closed: 2, errored: 4, dataApiCalls: 7, dataApiFailed: 2 });
  assert.deepEqual(
    week.errorsByProvider.map((p: { providerSlug: string; sessions: number }) => [p.providerSlug, p.sessions]),
    [
      ['beta', 2],
      ['alpha', 4],
      ['gone', 1],
    ],
  );
  const todayOnly = expectOk(await overview(owner, '?days=1'));
  assert.deepEqual(todayOnly.series, [{ day: day(0), sessions: 2, active: 1, closed: 1, errored: 0, dataApiCalls: 1, dataApiFailed: 1 }]);
  assert.equal(todayOnly.activeSessions, 2);
  assert.equal(expectOk(await overview(owner, '?days=90')).series.length, 90);

  for (const bad of ['0', '91', '1.5', 'abc', '']) {
    const res = await overview(owner, `?days=${bad}`);
    expectError(res, 400, 'validation_error');
    assert.deepEqual(
      res.body.error.details.map((d: { path: string }) => d.path),
      ['days'],
      `days=${bad}`,
    );
  }
});

test('any member reads it; a cookie session too; a stranger gets only their own workspace', async () => {
  const o = expectOk(await overview(owner));
  const asMember = expectOk(await overview(member, '', { 'x-workspace-id': owner.workspaceId }));
  for (const field of ['series', 'totals', 'activeSessions', 'errorsByProvider', 'routers', 'wallet', 'freeSessions']) {
    assert.deepEqual(asMember[field], o[field], field);
  }
  // An active session's duration runs on between two reads.
  const steady = (sessions: { durationMs: number }[]) => sessions.map(({ durationMs: _running, ...rest }) => rest);
  assert.deepEqual(steady(asMember.latestSessions), steady(o.latestSessions));
  assert.equal(asMember.checklist.complete, true);
  const viaCookie = expectOk(await call('GET', '/v1/overview', { auth: await signIn(owner.email), headers: { 'x-workspace-id': owner.workspaceId } }));
  assert.deepEqual(viaCookie.totals, o.totals);

  expectError(await overview(stranger, '', { 'x-workspace-id': owner.workspaceId }), 403, 'not_a_member');
  const own = expectOk(await overview(stranger));
  assert.deepEqual(own.totals, { sessions: 1, active: 0, closed: 0, errored: 1, dataApiCalls: 50, dataApiFailed: 5 });
  assert.deepEqual(
    own.latestSessions.map((s: { id: string }) => s.id),
    [ids.strangers],
  );
  assert.deepEqual(
    own.routers.map((r: { id: string }) => r.id),
    [stranger.routerId],
  );
  assert.equal(own.wallet.balanceMillicents, 0);
});

test('no or a wrong credential is 401; a router key is not an account token', async () => {
  expectError(await call('GET', '/v1/overview'), 401, 'unauthenticated');
  expectError(await call('GET', '/v1/overview', { auth: { token: 'acct_wrong' } }), 401, 'unauthenticated');
  expectError(await call('GET', '/v1/overview', { auth: { token: await routerKey(owner.workspaceId, owner.routerId) } }), 401, 'unauthenticated');
});

test('the checklist follows what exists: a provider, a live token, a teammate or invitation, a session or a successful data-API call', async () => {
  const fresh = await newUser('ov-fresh');
  const cookie = await signIn(fresh.email);
  const checklist = async () => {
    const o = expectOk(await call('GET', '/v1/overview', { auth: cookie }));
    return { complete: o.checklist.complete, done: o.checklist.items.filter((i: { done: boolean }) => i.done).map((i: { id: string }) => i.id) };
  };
  // Seeded with an access token; nothing else.
  assert.deepEqual(await checklist(), { complete: false, done: ['create_access_token'] });
  await db.accessToken.updateMany({ where: { userId: fresh.userId }, data: { revokedAt: new Date() } });
  assert.deepEqual(await checklist(), { complete: false, done: [] });
  expectOk(await call('POST', '/v1/access-tokens', { auth: cookie, body: { label: 'CI' } }), 201);

  await seedProvider(fresh.workspaceId, fresh.routerId, { slug: 'chromium', url: browser.wsUrl, enabled: false });
  assert.deepEqual(await checklist(), { complete: false, done: ['create_access_token'] }, 'a disabled provider does not count');
  await db.provider.updateMany({ where: { workspaceId: fresh.workspaceId }, data: { enabled: true } });
  const { notifyRouter } = await import('../support/providers');
  await notifyRouter(fresh.routerId);

  expectOk(await call('POST', '/v1/invitations', { auth: cookie, body: { email: uniqueEmail('ov-invitee'), role: 'member' } }), 201);
  assert.deepEqual(await checklist(), { complete: false, done: ['add_provider', 'create_access_token', 'invite_teammate'] });

  // A failed call is not a first session; a successful one is.
  const key = await routerKey(fresh.workspaceId, fresh.routerId);
  expectStatus(await dataApi('screenshot', key, { url: `${site.url}/basic`, format: 'gif' }), 400);
  await eventually(
    async () => (await db.dataApiUsage.findFirst({ where: { workspaceId: fresh.workspaceId } }))?.failed === 1,
    5_000,
    'the failed call counted',
  );
  assert.equal((await checklist()).complete, false);
  expectStatus(await dataApi('screenshot', key, { url: `${site.url}/basic` }), 200);
  await eventually(async () => (await checklist()).complete, 5_000, 'the checklist complete after a successful call');
  const o = expectOk(await call('GET', '/v1/overview', { auth: cookie }));
  assert.deepEqual(
    o.routers.map((r: { dataApiCalls: number; dataApiFailed: number }) => [r.dataApiCalls, r.dataApiFailed]),
    [[1, 1]],
  );
  assert.equal(o.totals.sessions, 0, 'data-API calls write no session row');
});
