// Who may call each providers endpoint: 401 without a valid token, 403 for a member on owner/admin
// endpoints, 404 for another workspace's router or provider, and every bearer call counted.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectError, expectOk, newUser, signIn, type TestUser } from '../support/api';
import { seedMember, seedProvider } from '../support/seed';
import { refusedUrl } from '../support/upstreams';

let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let stranger: TestUser;
let deadUrl: string;

/** A provider row set up directly, never probed: these tests are about access, not about probing. */
async function insertProvider(user: TestUser, slug: string) {
  await seedProvider(user.workspaceId, user.routerId, {
    slug,
    url: `ws://127.0.0.1:9/devtools/browser/${slug}?token=t`,
    headers: { 'X-Secret': 'h' },
    capabilities: null,
  });
}

before(async () => {
  [owner, admin, member, stranger, deadUrl] = await Promise.all([
    newUser('pa-owner'),
    newUser('pa-admin'),
    newUser('pa-member'),
    newUser('pa-stranger'),
    refusedUrl(),
  ]);
  await Promise.all([seedMember(owner.workspaceId, admin.userId, 'admin'), seedMember(owner.workspaceId, member.userId, 'member')]);
  await Promise.all([insertProvider(owner, 'mine'), insertProvider(owner, 'spare'), insertProvider(stranger, 'theirs')]);
});

type Endpoint = { method: string; path: (slug: string) => string; role: 'any' | 'admin'; body?: () => unknown; slugged: boolean };
const endpoints: Endpoint[] = [
  { method: 'GET', path: () => '/v1/providers', role: 'any', slugged: false },
  { method: 'GET', path: (s) => `/v1/providers/${s}`, role: 'any', slugged: true },
  { method: 'GET', path: (s) => `/v1/providers/${s}/plaintext`, role: 'admin', slugged: true },
  { method: 'POST', path: () => '/v1/providers', role: 'admin', body: () => ({ slug: 'mine', url: deadUrl }), slugged: false },
  {
    method: 'POST',
    path: () => '/v1/providers/verify-key',
    role: 'admin',
    body: () => ({ adapterKind: 'adapter-one', credentials: { apiKey: 'not-registered' } }),
    slugged: false,
  },
  { method: 'PATCH', path: (s) => `/v1/providers/${s}`, role: 'admin', body: () => ({ name: 'Renamed' }), slugged: true },
  { method: 'DELETE', path: (s) => `/v1/providers/${s}`, role: 'admin', slugged: true },
  { method: 'POST', path: (s) => `/v1/providers/${s}/test`, role: 'admin', slugged: true },
  { method: 'POST', path: (s) => `/v1/providers/${s}/reprobe`, role: 'admin', slugged: true },
  { method: 'POST', path: () => '/v1/providers/test-url', role: 'admin', body: () => ({ url: deadUrl }), slugged: false },
  { method: 'POST', path: () => '/v1/providers/probe', role: 'admin', body: () => ({ url: deadUrl }), slugged: false },
];
const label = (e: Endpoint) => `${e.method} ${e.path(':slug')}`;

test('every providers endpoint: 401 without a valid account token', async () => {
  for (const e of endpoints) {
    expectError(await call(e.method, e.path('mine'), { body: e.body?.() }), 401, 'unauthenticated');
    expectError(await call(e.method, e.path('mine'), { auth: { token: 'acct_not-a-real-token' }, body: e.body?.() }), 401, 'unauthenticated');
  }
});

test('every owner/admin providers endpoint: 403 forbidden for a member; members can read', async () => {
  for (const e of endpoints) {
    const res = await call(e.method, e.path('mine'), { auth: { token: member.token }, headers: { 'x-workspace-id': owner.workspaceId }, body: e.body?.() });
    if (e.role === 'admin') expectError(res, 403, 'forbidden');
    else expectOk(res);
  }
  const list = expectOk(await call('GET', '/v1/providers', { auth: { token: member.token }, headers: { 'x-workspace-id': owner.workspaceId } }));
  assert.deepEqual(
    list.items.map((p: { slug: string }) => p.slug),
    ['mine', 'spare'],
  );
  // An admin may do what the owner does.
  const headers = { 'x-workspace-id': owner.workspaceId };
  assert.equal(expectOk(await call('PATCH', '/v1/providers/spare', { auth: { token: admin.token }, headers, body: { priority: 5 } })).priority, 5);
  assert.equal(
    expectOk(await call('GET', '/v1/providers/spare/plaintext', { auth: { token: admin.token }, headers })).url,
    'ws://127.0.0.1:9/devtools/browser/spare?token=t',
  );
});

test("every providers endpoint: another workspace's router is 404 (X-Router-Id or routerInstanceId)", async () => {
  for (const e of endpoints) {
    const viaHeader = await call(e.method, e.path('mine'), { auth: { token: owner.token }, headers: { 'x-router-id': stranger.routerId }, body: e.body?.() });
    expectError(viaHeader, 404, 'not_found');
    const separator = e.path('mine').includes('?') ? '&' : '?';
    const viaQuery = await call(e.method, `${e.path('mine')}${separator}routerInstanceId=${stranger.routerId}`, {
      auth: { token: owner.token },
      body: e.body?.(),
    });
    expectError(viaQuery, 404, 'not_found');
  }
});

test("every slug endpoint: another workspace's provider is 404; bearer calls are counted", async () => {
  for (const e of endpoints.filter((x) => x.slugged)) {
    const res = await call(e.method, e.path('theirs'), { auth: { token: owner.token }, body: e.body?.() });
    expectError(res, 404, 'not_found');
    assert.ok(res.headers.get('x-ratelimit-remaining'), `${label(e)} is counted`);
  }
  // The stranger still has it.
  expectOk(await call('GET', '/v1/providers/theirs', { auth: { token: stranger.token } }));
});

test('every providers endpoint carries the rate-limit headers on bearer calls, not on dashboard calls', async () => {
  const expected: Record<string, number> = {
    'POST /v1/providers': 409, // slug "mine" exists: refused before any probe
    'POST /v1/providers/verify-key': 401, // the vendor stand-in does not know the key
    'DELETE /v1/providers/:slug': 200,
  };
  for (const e of endpoints) {
    const slug = e.method === 'DELETE' ? 'spare' : 'mine';
    const res = await call(e.method, e.path(slug), { auth: { token: owner.token }, body: e.body?.() });
    const status = expected[label(e)] ?? (e.path(':slug').endsWith('/reprobe') ? 502 : 200);
    assert.equal(res.status, status, `${label(e)}: ${JSON.stringify(res.body)}`);
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) assert.ok(res.headers.get(header), `${label(e)} ${header}`);
  }
  const session = await signIn(owner.email);
  const res = await call('GET', '/v1/providers', { auth: session });
  expectOk(res);
  assert.equal(res.headers.get('x-ratelimit-limit'), null);
});
