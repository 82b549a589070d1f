// Access tokens: list, create (cookie), the cap of 10, rotate, revoke, delete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectError, expectOk, newUser, signIn } from '../support/api';

test('create shows the plaintext once; the list never does', async () => {
  const user = await newUser('tok');
  const session = await signIn(user.email);
  const created = expectOk(await call('POST', '/v1/access-tokens', { auth: session, body: { label: 'CI' } }), 201);
  assert.match(created.plaintextToken, /^acct_[A-Za-z0-9_-]{43}$/);
  assert.equal(created.label, 'CI');
  assert.equal(created.scopes, 'account:full');
  assert.equal(created.prefix, created.plaintextToken.slice(0, created.prefix.length));
  assert.equal(created.revokedAt, null);
  const list = expectOk(await call('GET', '/v1/access-tokens', { auth: { token: created.plaintextToken } }));
  assert.equal(list.cap, 10);
  assert.equal(list.total, 2);
  for (const item of list.items) {
    assert.deepEqual(Object.keys(item).sort(), ['createdAt', 'id', 'label', 'lastUsedAt', 'prefix', 'revokedAt', 'scopes']);
  }
});

test('validation: a label is required', async () => {
  const user = await newUser('tokval');
  const session = await signIn(user.email);
  const res = await call('POST', '/v1/access-tokens', { auth: session, body: {} });
  expectError(res, 400, 'validation_error');
  assert.match(res.body.error.message, /label/);
  expectError(await call('POST', '/v1/access-tokens', { auth: session, body: { label: 'x'.repeat(101) } }), 400, 'validation_error');
});

test('the eleventh active token is 409 limit_reached; revoking one frees a place', async () => {
  const user = await newUser('cap'); // holds 1 token already
  const session = await signIn(user.email);
  const made = await Promise.all(Array.from({ length: 12 }, (_, i) => call('POST', '/v1/access-tokens', { auth: session, body: { label: `t${i}` } })));
  assert.equal(made.filter((r) => r.status === 201).length, 9, 'concurrent creates never pass the cap');
  for (const res of made.filter((r) => r.status !== 201)) expectError(res, 409, 'limit_reached');
  const first = made.find((r) => r.status === 201)!.body.data;
  expectOk(await call('POST', `/v1/access-tokens/${first.id}/revoke`, { auth: session }));
  expectOk(await call('POST', '/v1/access-tokens', { auth: session, body: { label: 'again' } }), 201);
  expectError(await call('POST', '/v1/access-tokens', { auth: session, body: { label: 'over' } }), 409, 'limit_reached');
});

test('rotate keeps label and creation date; the old value fails at once', async () => {
  const user = await newUser('rot');
  const session = await signIn(user.email);
  const created = expectOk(await call('POST', '/v1/access-tokens', { auth: session, body: { label: 'rotate me' } }), 201);
  expectOk(await call('GET', '/v1/me', { auth: { token: created.plaintextToken } }));
  const rotated = expectOk(await call('POST', `/v1/access-tokens/${created.id}/rotate`, { auth: session }));
  assert.equal(rotated.id, created.id);
  assert.equal(rotated.label, 'rotate me');
  assert.equal(rotated.createdAt, created.createdAt);
  assert.notEqual(rotated.plaintextToken, created.plaintextToken);
  expectError(await call('GET', '/v1/me', { auth: { token: created.plaintextToken } }), 401, 'unauthenticated');
  expectOk(await call('GET', '/v1/me', { auth: { token: rotated.plaintextToken } }));
});

test('revoke keeps the token listed with revokedAt; delete removes it', async () => {
  const user = await newUser('rev');
  const session = await signIn(user.email);
  const created = expectOk(await call('POST', '/v1/access-tokens', { auth: session, body: { label: 'gone soon' } }), 201);
  const revoked = expectOk(await call('POST', `/v1/access-tokens/${created.id}/revoke`, { auth: session }));
  assert.ok(revoked.revokedAt);
  expectError(await call('GET', '/v1/me', { auth: { token: created.plaintextToken } }), 401, 'unauthenticated');
  let list = expectOk(await call('GET', '/v1/access-tokens', { auth: session }));
  assert.ok(list.items.find((t: { id: string; revokedAt: string }) => t.id === created.id && t.revokedAt));
  expectError(await call('POST', `/v1/access-tokens/${created.id}/rotate`, { auth: session }), 409, 'conflict');
  assert.deepEqual(expectOk(await call('DELETE', `/v1/access-tokens/${created.id}`, { auth: session })), { id: created.id });
  list = expectOk(await call('GET', '/v1/access-tokens', { auth: session }));
  assert.equal(
    list.items.some((t: { id: string }) => t.id === created.id),
    false,
  );
});

test("another user's token is not_found for every action", async () => {
  const owner = await newUser('own');
  const other = await newUser('other');
  const ownerTokens = expectOk(await call('GET', '/v1/access-tokens', { auth: { token: owner.token } }));
  const id = ownerTokens.items[0].id;
  const session = await signIn(other.email);
  expectError(await call('POST', `/v1/access-tokens/${id}/rotate`, { auth: session }), 404, 'not_found');
  expectError(await call('POST', `/v1/access-tokens/${id}/revoke`, { auth: session }), 404, 'not_found');
  expectError(await call('DELETE', `/v1/access-tokens/${id}`, { auth: session }), 404, 'not_found');
  expectOk(await call('GET', '/v1/me', { auth: { token: owner.token } }));
});

test('unauthenticated calls are 401', async () => {
  expectError(await call('GET', '/v1/access-tokens'), 401, 'unauthenticated');
  expectError(await call('POST', '/v1/access-tokens', { body: { label: 'x' } }), 401, 'unauthenticated');
});
