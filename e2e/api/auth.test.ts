// Authentication of the control-plane API: bearer account tokens and dashboard cookies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectError, expectOk, newUser, signIn, WEB } from '../support/api';

test('missing, malformed and unknown bearers are 401 unauthenticated', async () => {
  expectError(await call('GET', '/v1/me'), 401, 'unauthenticated');
  expectError(await call('GET', '/v1/me', { headers: { authorization: 'Basic abc' } }), 401, 'unauthenticated');
  expectError(await call('GET', '/v1/me', { auth: { token: 'acct_doesnotexist' } }), 401, 'unauthenticated');
  expectError(await call('GET', '/v1/workspaces', { auth: { token: 'not-a-token' } }), 401, 'unauthenticated');
});

test('a router key is not accepted by the control plane', async () => {
  const user = await newUser('rkey');
  const { db } = await import('../../lib/db');
  const { decryptText } = await import('../../lib/crypto/encryption');
  const key = await db.routerKey.findFirstOrThrow({ where: { workspaceId: user.workspaceId } });
  const plaintext = decryptText(key.keyEncrypted!);
  assert.match(plaintext, /^rkey_/);
  const res = await call('GET', '/v1/me', { auth: { token: plaintext } });
  expectError(res, 401, 'unauthenticated');
  assert.match(res.body.error.message, /account token/);
});

test('an account token authenticates /v1/me with the spec shape', async () => {
  const user = await newUser('me');
  const me = expectOk(await call('GET', '/v1/me', { auth: { token: user.token } }));
  assert.deepEqual(Object.keys(me.user).sort(), ['email', 'emailVerified', 'id', 'image', 'name']);
  assert.equal(me.user.email, user.email);
  assert.equal(me.user.emailVerified, true);
  assert.deepEqual(me.workspaces, [{ id: user.workspaceId, slug: me.workspaces[0].slug, name: me.workspaces[0].name, role: 'owner' }]);
  assert.equal(me.activeWorkspaceId, user.workspaceId);
  assert.equal(me.activeWorkspacePlan, 'free');
  assert.equal(me.activeWorkspaceAccountState, 'free');
  assert.deepEqual(me.routers, [{ id: user.routerId, slug: 'default', name: 'Default' }]);
  assert.equal(me.activeRouterInstanceId, user.routerId);
  assert.equal(me.isAdmin, false);
});

test('the dashboard cookie authenticates, and a wrong password gets no cookie', async () => {
  const user = await newUser('cookie');
  const session = await signIn(user.email);
  const me = expectOk(await call('GET', '/v1/me', { auth: session }));
  assert.equal(me.user.id, user.userId);
  await assert.rejects(signIn(user.email, 'wrong password entirely'), /sign-in failed/);
  // An explicit Authorization header wins over the cookie: a bad one is 401 even with a good cookie.
  expectError(await call('GET', '/v1/me', { auth: session, headers: { authorization: 'Bearer acct_bad' } }), 401, 'unauthenticated');
});

test('cookie-only endpoints refuse bearers with 403 cookie_required', async () => {
  const user = await newUser('cookieonly');
  const auth = { token: user.token };
  expectError(await call('POST', '/v1/access-tokens', { auth, body: { label: 'x' } }), 403, 'cookie_required');
  const tokens = expectOk(await call('GET', '/v1/access-tokens', { auth }));
  const id = tokens.items[0].id;
  expectError(await call('POST', `/v1/access-tokens/${id}/rotate`, { auth }), 403, 'cookie_required');
  expectError(await call('POST', `/v1/access-tokens/${id}/revoke`, { auth }), 403, 'cookie_required');
  expectError(await call('DELETE', `/v1/access-tokens/${id}`, { auth }), 403, 'cookie_required');
  expectError(await call('DELETE', '/v1/workspaces/current', { auth, body: { confirm: 'x' } }), 403, 'cookie_required');
  expectError(await call('DELETE', `/v1/workspaces/current/members/${user.userId}`, { auth }), 403, 'cookie_required');
  expectError(await call('POST', '/v1/invitations', { auth, body: { email: 'a@example.test', role: 'member' } }), 403, 'cookie_required');
});

test('cookie mutations from another origin are refused', async () => {
  const user = await newUser('csrf');
  const session = await signIn(user.email);
  const res = await call('POST', '/v1/access-tokens', { auth: { ...session, origin: 'https://evil.example' }, body: { label: 'csrf' } });
  expectError(res, 403, 'forbidden');
  const list = expectOk(await call('GET', '/v1/access-tokens', { auth: session }));
  assert.equal(
    list.items.some((t: { label: string }) => t.label === 'csrf'),
    false,
    'nothing was created',
  );
  expectOk(await call('POST', '/v1/access-tokens', { auth: { ...session, origin: new URL(WEB).origin }, body: { label: 'same-origin' } }), 201);
});

test('lastUsedAt is written on use, at most once an hour', async () => {
  const user = await newUser('lastused');
  const { db } = await import('../../lib/db');
  const { hashSecret } = await import('../../lib/crypto/secrets');
  expectOk(await call('GET', '/v1/me', { auth: { token: user.token } }));
  const deadline = Date.now() + 5_000;
  let first: Date | null = null;
  while (!first && Date.now() < deadline) {
    first = (await db.accessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(user.token) } })).lastUsedAt;
    if (!first) await new Promise((r) => setTimeout(r, 20));
  }
  assert.ok(first, 'lastUsedAt set');
  expectOk(await call('GET', '/v1/me', { auth: { token: user.token } }));
  expectOk(await call('GET', '/v1/workspaces', { auth: { token: user.token } }));
  const second = (await db.accessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(user.token) } })).lastUsedAt;
  assert.equal(second?.getTime(), first.getTime(), 'not rewritten within the hour');
});

test('unknown /v1 paths and bad JSON answer in the envelope', async () => {
  const user = await newUser('envelope');
  expectError(await call('GET', '/v1/nope', { auth: { token: user.token } }), 404, 'not_found');
  const session = await signIn(user.email);
  const res = await call('POST', '/v1/workspaces/active', { auth: session, rawBody: '{not json', headers: { 'content-type': 'application/json' } });
  expectError(res, 400, 'validation_error');
  assert.match(res.body.error.message, /JSON/);
});

test('secrets never appear in responses except where the spec returns them', async () => {
  const user = await newUser('leak');
  const me = await call('GET', '/v1/me', { auth: { token: user.token } });
  const tokens = await call('GET', '/v1/access-tokens', { auth: { token: user.token } });
  for (const res of [me, tokens]) {
    const text = JSON.stringify(res.body);
    assert.equal(text.includes(user.token), false);
    assert.equal(/tokenHash|passwordHash|keyHash/.test(text), false);
  }
});

test('a client-sent X-Forwarded-For does not choose the throttle bucket; only failures count', async () => {
  const user = await newUser('xff');
  const { db } = await import('../../lib/db');
  const spoofed = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
  const csrf = await fetch(`${WEB}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  await fetch(`${WEB}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'x-forwarded-for': spoofed },
    body: new URLSearchParams({ csrfToken, email: user.email, password: 'not the password', json: 'true' }),
    redirect: 'manual',
  });
  assert.equal(await db.rateLimitBucket.count({ where: { key: `sign-in-fail-ip:${spoofed}` } }), 0);
  assert.equal(await db.rateLimitBucket.count({ where: { key: `sign-in-fail:${user.email}` } }), 1);
  await signIn(user.email);
  const bucket = await db.rateLimitBucket.findFirstOrThrow({ where: { key: `sign-in-fail:${user.email}` } });
  assert.equal(bucket.count, 1, 'a successful sign-in does not count');
});
