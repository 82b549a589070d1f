// Charges and the wallet's 402s over real connects and data-API calls (docs/billing.md): a session
// within the month's 10,000 free costs nothing; above it 50 millicents at its end, written with the
// end (in the one-statement path and in the webhook-outbox transaction alike); over the ceiling
// with an empty wallet the connect is refused before the WebSocket opens, and a top-up lifts that
// at once; enterprise is never refused for money; data-API calls are never refused and may take
// the balance below zero; recording and traces need a positive balance.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { call, expectOk, newUser, type TestUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { cdp, connectUrl, eventually, expectOpened, expectRefused, routerKey } from '../support/connect';
import { dataApi, expectStatus } from '../support/data-api';
import { seedProvider, seedUsage } from '../support/seed';
import { startTestSite, type TestSite } from '../support/test-site';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { post } from '../../lib/billing/ledger';
import { db } from '../../lib/db';

let browser: Chromium;
let site: TestSite;
let receiver: Receiver;
before(async () => {
  [browser, site, receiver] = await Promise.all([launchChromium(), startTestSite(), startReceiver()]);
});
after(async () => {
  await Promise.all([browser?.stop(), site?.close(), receiver?.close()]);
});

async function withProvider(tag: string): Promise<TestUser & { key: string }> {
  const user = await newUser(tag);
  await seedProvider(user.workspaceId, user.routerId, { slug: 'chromium', url: browser.wsUrl });
  return { ...user, key: await routerKey(user.workspaceId, user.routerId) };
}

const grant = (workspaceId: string, millicents: bigint) =>
  post(db, workspaceId, [{ kind: 'grant', amountMillicents: millicents, cause: `grant:${randomUUID()}` }]);
const balance = async (workspaceId: string) => (await db.wallet.findUnique({ where: { workspaceId } }))?.balanceMillicents ?? 0n;

async function endedSession(user: TestUser, sessionId: string) {
  return eventually(
    async () => {
      const res = await call('GET', `/v1/sessions/${sessionId}`, { auth: { token: user.token } });
      if (res.status === 404) return null; // the row is written beside the 101, not before it
      const got = expectOk(res);
      return got.state !== 'active' ? got : null;
    },
    5_000,
    'the session end',
  );
}

async function runSession(user: TestUser & { key: string }) {
  const s = await expectOpened(connectUrl(user.key));
  await cdp(s.ws, 'Browser.getVersion');
  s.ws.close();
  await s.closed;
  return endedSession(user, s.sessionId);
}

test('within the free 10,000 a session costs nothing and moves no money', async () => {
  const user = await withProvider('free-session');
  const ended = await runSession(user);
  assert.equal(ended.billedCents, 0);
  assert.equal(ended.billedMillicents, 0);
  assert.equal(await db.walletEntry.count({ where: { workspaceId: user.workspaceId } }), 0);
  const row = await db.sessionLog.findUniqueOrThrow({ where: { id: ended.id } });
  assert.equal(row.monthOrdinal, 1, 'the first session of the month');
});

test('above the free count a session costs 50 millicents at its end, in the same write as the end', async () => {
  const user = await withProvider('over-session');
  await seedUsage(user.workspaceId, 10_000);
  await grant(user.workspaceId, 1_000n);
  const ended = await runSession(user);
  assert.equal(ended.billedMillicents, 50);
  assert.equal(ended.billedCents, 0, 'a twentieth of a cent rounds to 0 whole cents');
  const entries = await db.walletEntry.findMany({ where: { workspaceId: user.workspaceId, kind: 'session' } });
  assert.deepEqual(
    entries.map((e) => [e.cause, e.amountMillicents, e.sessionLogId]),
    [[`session:${ended.id}:session`, -50n, ended.id]],
  );
  assert.equal(await balance(user.workspaceId), 950n);
  const day = await db.ledgerEntry.findMany({ where: { workspaceId: user.workspaceId, kind: 'session' } });
  assert.deepEqual(
    day.map((d) => [d.count, d.totalMillicents]),
    [[1, -50n]],
  );
  assert.equal((await db.sessionLog.findUniqueOrThrow({ where: { id: ended.id } })).monthOrdinal, 10_001);
});

test('a session with a webhook to tell is charged in the same transaction as its event', async () => {
  const user = await withProvider('over-hook');
  expectOk(
    await call('POST', '/v1/webhooks', {
      auth: { token: user.token },
      body: { label: 'ends', url: `${receiver.url}/ends-${user.workspaceId}`, events: ['session.ended'] },
    }),
    201,
  );
  await seedUsage(user.workspaceId, 20_000);
  await grant(user.workspaceId, 100_000n);
  const ended = await runSession(user);
  assert.equal(ended.billedMillicents, 50);
  assert.equal(await balance(user.workspaceId), 99_950n);
  const [delivery] = await receiver.waitFor(1, (r) => r.path === `/ends-${user.workspaceId}`);
  assert.equal(delivery!.body.data.sessionId, ended.id);
  assert.equal(delivery!.body.data.billedCents, 0);
});

test('over the monthly ceiling with an empty wallet the connect is refused with 402; a top-up lifts it at once', async () => {
  const user = await withProvider('ceiling');
  await seedUsage(user.workspaceId, 10_000);
  const refused = await expectRefused(connectUrl(user.key), 402);
  assert.match(refused.body, /10,000 free sessions this month and the wallet is empty; top up at http.*\/billing/);
  assert.equal(await db.sessionLog.count({ where: { workspaceId: user.workspaceId } }), 0, 'no session row for a refusal');
  // A balance below zero is still empty.
  await post(db, user.workspaceId, [{ kind: 'session', amountMillicents: -100n, cause: `call:${randomUUID()}` }]);
  await expectRefused(connectUrl(user.key), 402);
  await grant(user.workspaceId, 200n); // balance 100 millicents: above zero
  const ended = await runSession(user);
  assert.equal(ended.billedMillicents, 50);
  assert.equal(await balance(user.workspaceId), 50n);
});

test('recording and traces need a positive balance (402 before anything opens); enterprise is never refused for money', async () => {
  const user = await withProvider('paid-features');
  for (const query of [{ session_record: 'true' }, { observability: 'true' }, { session_record: 'true', observability: 'true' }] as Record<string, string>[]) {
    const refused = await expectRefused(connectUrl(user.key, query), 402);
    assert.match(refused.body, /positive wallet balance; top up the wallet at http.*\/billing/);
  }
  await db.workspace.update({ where: { id: user.workspaceId }, data: { enterprise: true } });
  await seedUsage(user.workspaceId, 50_000);
  const ended = await runSession(user);
  assert.equal(ended.billedMillicents, 50, 'enterprise usage is metered in the ledger');
  assert.equal(await balance(user.workspaceId), -50n, 'and may run below zero (billed by contract)');
});

test('a suspended workspace is refused with 402 whatever its balance', async () => {
  const user = await withProvider('suspended');
  await grant(user.workspaceId, 1_000_000n);
  await db.workspace.update({ where: { id: user.workspaceId }, data: { suspended: true } });
  const refused = await expectRefused(connectUrl(user.key), 402);
  assert.match(refused.body, /suspended/);
});

test('data-API calls count toward the month, cost 50 millicents past the free count, and are never refused on an empty wallet', async () => {
  const user = await withProvider('data-over');
  const body = { url: `${site.url}/basic` };
  expectStatus(await dataApi('content', user.key, body), 200);
  await eventually(async () => (await db.usageCounter.findFirst({ where: { workspaceId: user.workspaceId } }))?.sessions === 1, 5_000, 'the call counted');
  assert.equal(await db.walletEntry.count({ where: { workspaceId: user.workspaceId } }), 0, 'free within the month');

  await seedUsage(user.workspaceId, 10_000);
  expectStatus(await dataApi('content', user.key, body), 200);
  expectStatus(await dataApi('screenshot', user.key, body), 200);
  await eventually(async () => (await balance(user.workspaceId)) === -100n, 5_000, 'two calls charged');
  const entries = await db.walletEntry.findMany({ where: { workspaceId: user.workspaceId } });
  assert.equal(entries.length, 2);
  assert.ok(entries.every((e) => e.kind === 'session' && e.amountMillicents === -50n && e.cause.startsWith('call:req_')));
  // A failed call is neither counted nor charged.
  expectStatus(await dataApi('content', user.key, { url: 'not a url' }), 400);
  assert.equal((await db.usageCounter.findFirst({ where: { workspaceId: user.workspaceId } }))?.sessions, 10_002);
});
