// Router keys and chat links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectError, expectOk, newUser } from '../support/api';
import { seedMember, seedRouterKeys } from '../support/seed';

const keyFields = ['createdAt', 'id', 'label', 'lastUsedAt', 'prefix', 'revokedAt', 'routerInstanceId'];

test('list, create several live keys, get, revoke (stays listed)', async () => {
  const user = await newUser('kk');
  const auth = { token: user.token };
  const initial = expectOk(await call('GET', '/v1/api-keys', { auth }));
  assert.equal(initial.total, 1);
  assert.deepEqual(Object.keys(initial.items[0]).sort(), keyFields);
  const made = expectOk(await call('POST', '/v1/api-keys', { auth, body: { label: 'CI', routerInstanceId: user.routerId } }), 201);
  assert.match(made.plaintextKey, /^rkey_[A-Za-z0-9_-]{43}$/);
  assert.equal(made.prefix, made.plaintextKey.slice(0, made.prefix.length));
  assert.deepEqual(
    expectOk(await call('GET', `/v1/api-keys/${made.id}`, { auth })),
    Object.fromEntries(Object.entries(made).filter(([k]) => k !== 'plaintextKey')),
  );
  const list = expectOk(await call('GET', '/v1/api-keys', { auth }));
  assert.equal(list.total, 2);
  assert.equal(list.items[0].id, made.id, 'newest first');
  assert.equal(JSON.stringify(list).includes(made.plaintextKey), false);
  const revoked = expectOk(await call('DELETE', `/v1/api-keys/${made.id}`, { auth }));
  assert.ok(revoked.revokedAt);
  const after = expectOk(await call('GET', '/v1/api-keys', { auth }));
  assert.equal(after.total, 2);
  assert.ok(after.items.find((k: { id: string; revokedAt: string | null }) => k.id === made.id)!.revokedAt);
  const { db } = await import('../../lib/db');
  const { hashSecret } = await import('../../lib/crypto/secrets');
  assert.ok(
    (await db.routerKey.findUniqueOrThrow({ where: { keyHash: hashSecret(made.plaintextKey) } })).revokedAt,
    'revoked at once in the store the proxy reads',
  );
});

test('keys act on the router from X-Router-Id or routerInstanceId', async () => {
  const user = await newUser('kr');
  const auth = { token: user.token };
  const second = expectOk(await call('POST', '/v1/routers', { auth, body: { name: 'Second' } }), 201);
  const viaHeader = expectOk(await call('GET', '/v1/api-keys', { auth, headers: { 'x-router-id': second.id } }));
  assert.deepEqual(
    viaHeader.items.map((k: { routerInstanceId: string }) => k.routerInstanceId),
    [second.id],
  );
  const viaQuery = expectOk(await call('GET', `/v1/api-keys?routerInstanceId=${second.id}`, { auth }));
  assert.deepEqual(viaQuery, viaHeader);
  const made = expectOk(await call('POST', '/v1/api-keys', { auth, body: { label: 'second', routerInstanceId: second.id } }), 201);
  assert.equal(made.routerInstanceId, second.id);
  // Create takes the router from the header or the query as well as from its body.
  const byHeader = expectOk(await call('POST', '/v1/api-keys', { auth, headers: { 'x-router-id': second.id }, body: { label: 'by header' } }), 201);
  const byQuery = expectOk(await call('POST', `/v1/api-keys?routerInstanceId=${second.id}`, { auth, body: { label: 'by query' } }), 201);
  assert.deepEqual([byHeader.routerInstanceId, byQuery.routerInstanceId], [second.id, second.id]);
  const listed = expectOk(await call('GET', `/v1/api-keys?routerInstanceId=${second.id}`, { auth }));
  assert.ok(['by header', 'by query'].every((label) => listed.items.some((k: { label: string }) => k.label === label)));
  const other = await newUser('krx');
  expectError(await call('GET', '/v1/api-keys', { auth, headers: { 'x-router-id': other.routerId } }), 404, 'not_found');
  expectError(await call('POST', '/v1/api-keys', { auth, body: { label: 'x', routerInstanceId: other.routerId } }), 404, 'not_found');
  expectError(await call('POST', '/v1/api-keys', { auth, headers: { 'x-router-id': other.routerId }, body: { label: 'x' } }), 404, 'not_found');
});

test('rotate revokes every live key on the router and issues one; current/plaintext follows', async () => {
  const user = await newUser('krot');
  const auth = { token: user.token };
  const a = expectOk(await call('POST', '/v1/api-keys', { auth, body: { label: 'a', routerInstanceId: user.routerId } }), 201);
  const current = expectOk(await call('GET', '/v1/api-keys/current/plaintext', { auth }));
  assert.deepEqual(current, { apiKeyId: a.id, plaintextKey: a.plaintextKey });
  const rotated = expectOk(await call('POST', '/v1/api-keys/rotate', { auth, body: { label: 'after rotation' } }), 201);
  assert.equal(rotated.label, 'after rotation');
  const list = expectOk(await call('GET', '/v1/api-keys', { auth }));
  assert.deepEqual(
    list.items.filter((k: { revokedAt: string | null }) => !k.revokedAt).map((k: { id: string }) => k.id),
    [rotated.id],
  );
  assert.equal(list.total, 3);
  assert.deepEqual(expectOk(await call('GET', '/v1/api-keys/current/plaintext', { auth })), { apiKeyId: rotated.id, plaintextKey: rotated.plaintextKey });
  const bare = expectOk(await call('POST', '/v1/api-keys/rotate', { auth }), 201);
  assert.equal(typeof bare.label, 'string');
  expectOk(await call('DELETE', `/v1/api-keys/${bare.id}`, { auth }));
  expectError(await call('GET', '/v1/api-keys/current/plaintext', { auth }), 404, 'not_found');
});

test('roles: members list but cannot create, rotate, revoke or read plaintext', async () => {
  const owner = await newUser('kro');
  const member = await newUser('krm');
  await seedMember(owner.workspaceId, member.userId, 'member');
  const auth = { token: member.token };
  const headers = { 'x-workspace-id': owner.workspaceId };
  const list = expectOk(await call('GET', '/v1/api-keys', { auth, headers }));
  expectError(await call('POST', '/v1/api-keys', { auth, headers, body: { label: 'x', routerInstanceId: owner.routerId } }), 403, 'forbidden');
  expectError(await call('POST', '/v1/api-keys/rotate', { auth, headers }), 403, 'forbidden');
  expectError(await call('DELETE', `/v1/api-keys/${list.items[0].id}`, { auth, headers }), 403, 'forbidden');
  expectError(await call('GET', '/v1/api-keys/current/plaintext', { auth, headers }), 403, 'forbidden');
  expectError(await call('GET', '/v1/mcp-links/current', { auth, headers }), 403, 'forbidden');
  expectError(await call('POST', '/v1/mcp-links/rotate', { auth, headers }), 403, 'forbidden');
});

test('another workspace: not_found; validation; 401', async () => {
  const a = await newUser('kxa');
  const b = await newUser('kxb');
  const bKeys = expectOk(await call('GET', '/v1/api-keys', { auth: { token: b.token } }));
  expectError(await call('GET', `/v1/api-keys/${bKeys.items[0].id}`, { auth: { token: a.token } }), 404, 'not_found');
  expectError(await call('DELETE', `/v1/api-keys/${bKeys.items[0].id}`, { auth: { token: a.token } }), 404, 'not_found');
  const bad = await call('POST', '/v1/api-keys', { auth: { token: a.token }, body: { routerInstanceId: a.routerId } });
  expectError(bad, 400, 'validation_error');
  assert.match(bad.body.error.message, /label/);
  expectError(await call('GET', '/v1/api-keys'), 401, 'unauthenticated');
  expectError(await call('GET', '/v1/mcp-links/current'), 401, 'unauthenticated');
});

test('100 live keys per workspace → 402; rotation never passes the cap', async () => {
  const user = await newUser('kcap');
  const { db } = await import('../../lib/db');
  await seedRouterKeys(user.workspaceId, user.routerId, 99);
  expectError(
    await call('POST', '/v1/api-keys', { auth: { token: user.token }, body: { label: 'over', routerInstanceId: user.routerId } }),
    402,
    'fair_use_limit_reached',
  );
  expectOk(await call('POST', '/v1/api-keys/rotate', { auth: { token: user.token } }), 201);
  assert.equal(await db.routerKey.count({ where: { workspaceId: user.workspaceId, revokedAt: null } }), 1);
});

test('chat link: none, rotate (201, old stops), get, delete', async () => {
  const user = await newUser('mcp');
  const auth = { token: user.token };
  assert.equal(expectOk(await call('GET', '/v1/mcp-links/current', { auth })), null);
  const first = expectOk(await call('POST', '/v1/mcp-links/rotate', { auth }), 201);
  assert.deepEqual(Object.keys(first).sort(), ['createdAt', 'id', 'lastUsedAt', 'routerInstanceId', 'token']);
  assert.match(first.token, /^mcp_/);
  assert.deepEqual(expectOk(await call('GET', '/v1/mcp-links/current', { auth })), first);
  const second = expectOk(await call('POST', '/v1/mcp-links/rotate', { auth }), 201);
  assert.notEqual(second.token, first.token);
  const { db } = await import('../../lib/db');
  const { hashSecret } = await import('../../lib/crypto/secrets');
  assert.equal(await db.chatLink.findUnique({ where: { tokenHash: hashSecret(first.token) } }), null, 'old link stops at once');
  assert.deepEqual(expectOk(await call('DELETE', '/v1/mcp-links/current', { auth })), { id: second.id });
  assert.equal(expectOk(await call('GET', '/v1/mcp-links/current', { auth })), null);
  expectError(await call('DELETE', '/v1/mcp-links/current', { auth }), 404, 'not_found');
  const other = await newUser('mcpx');
  expectError(await call('GET', `/v1/mcp-links/current?routerInstanceId=${other.routerId}`, { auth }), 404, 'not_found');
});
