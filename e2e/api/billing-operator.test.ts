// The instance operator's tools over real HTTP (ADMIN_EMAILS=operator@test.local on the test
// stack): find workspaces, grant credits, mark a workspace enterprise, suspend it (its live
// sessions close at once with 4004 and its connects are refused with 402 until it is lifted).
// Anyone else gets 403 forbidden. The operator account is removed again at the end, because the
// browser tests sign it up themselves.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectError, expectOk, newUser, PASSWORD, signIn, type TestUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { cdp, connectUrl, expectOpened, expectRefused, routerKey, type Opened } from '../support/connect';
import { addProvider } from '../support/providers';
import { db } from '../../lib/db';

const OPERATOR = 'operator@test.local';
let operator: { token: string };
let createdOperatorId: string | null = null;
let target: TestUser;
let outsider: TestUser;
let browser: Chromium;

before(async () => {
  const existing = await db.user.findUnique({ where: { email: OPERATOR } });
  if (existing) {
    const { createAccessToken } = await import('../../lib/tokens/access-tokens');
    operator = { token: (await createAccessToken(existing.id, 'billing operator test')).plaintextToken };
  } else {
    const { seedUser } = await import('../../lib/users/seed-user');
    const seeded = await seedUser({ email: OPERATOR, password: PASSWORD, name: 'Test Operator' });
    createdOperatorId = seeded.userId;
    operator = { token: seeded.accessToken };
  }
  [target, outsider, browser] = await Promise.all([newUser('op-target'), newUser('op-outsider'), launchChromium()]);
});

after(async () => {
  await browser?.stop();
  if (createdOperatorId) {
    await db.workspace.deleteMany({ where: { memberships: { some: { userId: createdOperatorId, role: 'owner' } } } });
    await db.user.delete({ where: { id: createdOperatorId } });
  }
});

async function closedWithin(s: Opened, ms: number): Promise<{ code: number; reason: string }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`session ${s.sessionId} still open after ${ms} ms`)), ms)));
  try {
    return await Promise.race([s.closed, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

test('only the operator: anyone else gets 403 forbidden, no credentials 401; /v1/me says who is the operator', async () => {
  assert.equal(expectOk(await call('GET', '/v1/me', { auth: operator })).isAdmin, true);
  assert.equal(expectOk(await call('GET', '/v1/me', { auth: { token: outsider.token } })).isAdmin, false);
  const attempts = [
    ['GET', '/v1/admin/workspaces', undefined],
    ['POST', `/v1/admin/workspaces/${target.workspaceId}/credits`, { amountCents: 100 }],
    ['PATCH', `/v1/admin/workspaces/${target.workspaceId}`, { suspended: true }],
  ] as const;
  for (const [method, path, body] of attempts) {
    expectError(await call(method, path, { auth: { token: outsider.token }, body }), 403, 'forbidden');
    expectError(await call(method, path, { auth: await signIn(outsider.email), body }), 403, 'forbidden');
    expectError(await call(method, path, { body }), 401, 'unauthenticated');
  }
  // The owner of the workspace is no operator either: nothing changed.
  expectError(
    await call('POST', `/v1/admin/workspaces/${target.workspaceId}/credits`, { auth: { token: target.token }, body: { amountCents: 100 } }),
    403,
    'forbidden',
  );
  const balance = expectOk(await call('GET', '/v1/credits/balance', { auth: { token: target.token } }));
  assert.equal(balance.balanceUsdCents, 0);
  assert.equal((await db.workspace.findUniqueOrThrow({ where: { id: target.workspaceId } })).suspended, false);
});

test('GET /v1/admin/workspaces finds workspaces by slug, name or owner e-mail, with balance and state, paged', async () => {
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: target.workspaceId } });
  for (const q of [target.email.toUpperCase(), workspace.slug, workspace.name.slice(0, 8), target.workspaceId]) {
    const found = expectOk(await call('GET', `/v1/admin/workspaces?q=${encodeURIComponent(q)}`, { auth: operator }));
    const item = found.items.find((w: { id: string }) => w.id === target.workspaceId);
    assert.ok(item, `found by ${q}`);
    assert.deepEqual(item.owner, { id: target.userId, email: target.email, name: 'op-target tester' });
    assert.deepEqual(
      {
        plan: item.plan,
        enterprise: item.enterprise,
        suspended: item.suspended,
        accountState: item.accountState,
        balanceUsdCents: item.balanceUsdCents,
        balanceMillicents: item.balanceMillicents,
        dailyCap: item.dailyCap,
        memberCount: item.memberCount,
      },
      { plan: 'free', enterprise: false, suspended: false, accountState: 'free', balanceUsdCents: 0, balanceMillicents: 0, dailyCap: 5_000, memberCount: 1 },
    );
    assert.ok(!found.items.some((w: { id: string }) => w.id === outsider.workspaceId), 'only matches');
  }
  const page = expectOk(await call('GET', '/v1/admin/workspaces?pageSize=1&page=2', { auth: operator }));
  assert.equal(page.items.length, 1);
  assert.equal(page.page, 2);
  assert.equal(page.pageSize, 1);
  assert.ok(page.total >= 3);
  assert.deepEqual(expectOk(await call('GET', '/v1/admin/workspaces?q=no-such-workspace-anywhere', { auth: operator })), {
    items: [],
    total: 0,
    page: 1,
    pageSize: 25,
  });
  expectError(await call('GET', '/v1/admin/workspaces?pageSize=101', { auth: operator }), 400, 'validation_error');
});

test('POST /v1/admin/workspaces/:id/credits posts a grant: balance, ledger and account state follow at once', async () => {
  const granted = expectOk(
    await call('POST', `/v1/admin/workspaces/${target.workspaceId}/credits`, { auth: operator, body: { amountCents: 2_500, note: 'support case 17' } }),
    201,
  );
  assert.match(granted.grant.cause, /^grant:[0-9a-f-]{36}$/);
  assert.equal(granted.grant.amountCents, 2_500);
  assert.match(granted.grant.note, /^granted by user \S+: support case 17$/);
  assert.equal(granted.workspace.balanceUsdCents, 2_500);
  assert.equal(granted.workspace.accountState, 'paid');
  assert.equal(granted.workspace.dailyCap, 100_000);

  const auth = { token: target.token };
  assert.equal(expectOk(await call('GET', '/v1/credits/balance', { auth })).balanceUsdCents, 2_500);
  assert.equal(expectOk(await call('GET', '/v1/me', { auth })).activeWorkspaceAccountState, 'paid');
  const { rows } = expectOk(await call('GET', '/v1/billing/ledger?kind=grant', { auth }));
  assert.deepEqual(
    rows.map((r: { count: number; totalMillicents: number }) => [r.count, r.totalMillicents]),
    [[1, 2_500_000]],
  );
  const entry = await db.walletEntry.findUniqueOrThrow({ where: { cause: granted.grant.cause } });
  assert.deepEqual([entry.kind, entry.amountMillicents, entry.workspaceId], ['grant', 2_500_000n, target.workspaceId]);

  // A second grant is its own entry; the ledger counts two.
  expectOk(await call('POST', `/v1/admin/workspaces/${target.workspaceId}/credits`, { auth: operator, body: { amountCents: 1 } }), 201);
  assert.equal(expectOk(await call('GET', '/v1/credits/balance', { auth })).balanceUsdCents, 2_501);

  for (const body of [{}, { amountCents: 0 }, { amountCents: 10_000_001 }, { amountCents: 1.5 }, { amountCents: '100' }, { amountCents: 100, extra: true }]) {
    expectError(await call('POST', `/v1/admin/workspaces/${target.workspaceId}/credits`, { auth: operator, body }), 400, 'validation_error');
  }
  expectOk(await call('POST', `/v1/admin/workspaces/${target.workspaceId}/credits`, { auth: operator, body: { amountCents: 10_000_000 } }), 201);
  expectError(await call('POST', '/v1/admin/workspaces/no-such-workspace/credits', { auth: operator, body: { amountCents: 100 } }), 404, 'not_found');
  assert.equal(expectOk(await call('GET', '/v1/credits/balance', { auth })).balanceUsdCents, 10_002_501);
});

test('PATCH /v1/admin/workspaces/:id { enterprise } sets the plan; the owner sees it', async () => {
  const other = await newUser('op-enterprise');
  const auth = { token: other.token };
  const on = expectOk(await call('PATCH', `/v1/admin/workspaces/${other.workspaceId}`, { auth: operator, body: { enterprise: true } }));
  assert.deepEqual([on.enterprise, on.plan, on.accountState, on.dailyCap], [true, 'enterprise', 'enterprise', 100_000]);
  const me = expectOk(await call('GET', '/v1/me', { auth }));
  assert.deepEqual([me.activeWorkspacePlan, me.activeWorkspaceAccountState], ['enterprise', 'enterprise']);
  const summary = expectOk(await call('GET', '/v1/billing/summary', { auth }));
  assert.deepEqual([summary.plan, summary.accountState, summary.dailyCap], ['enterprise', 'enterprise', 100_000]);
  const res = await call('GET', '/v1/sessions', { auth });
  assert.equal(res.headers.get('x-ratelimit-limit'), '100000');

  const off = expectOk(await call('PATCH', `/v1/admin/workspaces/${other.workspaceId}`, { auth: operator, body: { enterprise: false } }));
  assert.deepEqual([off.enterprise, off.plan, off.accountState], [false, 'free', 'free']);
  assert.equal(expectOk(await call('GET', '/v1/billing/summary', { auth })).plan, 'free');

  for (const body of [{}, { enterprise: 'yes' }, { plan: 'enterprise' }, { suspended: null }]) {
    expectError(await call('PATCH', `/v1/admin/workspaces/${other.workspaceId}`, { auth: operator, body }), 400, 'validation_error');
  }
  expectError(await call('PATCH', '/v1/admin/workspaces/no-such-workspace', { auth: operator, body: { enterprise: true } }), 404, 'not_found');
});

test('suspending closes the live sessions at once (4004) and refuses connects with 402; lifting it lets them in again', async () => {
  const user = await newUser('op-suspend');
  const bystander = await newUser('op-bystander');
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browser.wsUrl });
  await addProvider(bystander.workspaceId, bystander.routerId, { slug: 'a', url: browser.wsUrl });
  const key = await routerKey(user.workspaceId, user.routerId);
  const live = await expectOpened(connectUrl(key));
  const elsewhere = await expectOpened(connectUrl(await routerKey(bystander.workspaceId, bystander.routerId)));

  const suspended = expectOk(await call('PATCH', `/v1/admin/workspaces/${user.workspaceId}`, { auth: operator, body: { suspended: true } }));
  assert.equal(suspended.suspended, true);
  assert.deepEqual(await closedWithin(live, 1_000), {
    code: 4004,
    reason: 'workspace suspended by the operator: sessions and connects are refused until the suspension is lifted',
  });
  assert.match((await expectRefused(connectUrl(key), 402)).body, /workspace is suspended/);
  await cdp(elsewhere.ws, 'Browser.getVersion'); // another workspace is untouched
  assert.equal(expectOk(await call('GET', '/v1/billing/summary', { auth: { token: user.token } })).suspended, true);
  // Suspending again changes nothing and is no error.
  assert.equal(expectOk(await call('PATCH', `/v1/admin/workspaces/${user.workspaceId}`, { auth: operator, body: { suspended: true } })).suspended, true);

  const lifted = expectOk(await call('PATCH', `/v1/admin/workspaces/${user.workspaceId}`, { auth: operator, body: { suspended: false } }));
  assert.equal(lifted.suspended, false);
  const again = await expectOpened(connectUrl(key));
  await cdp(again.ws, 'Browser.getVersion');
  assert.equal(expectOk(await call('GET', '/v1/billing/summary', { auth: { token: user.token } })).suspended, false);
  again.ws.close();
  elsewhere.ws.close();
});
