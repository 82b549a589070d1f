// The read side of routers that the foundation needs (the rest of the routers API is issue 3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectError, expectOk, newUser, signIn } from '../support/api';

test('GET /v1/routers and /v1/routers/:id; another workspace is not_found', async () => {
  const a = await newUser('ra');
  const b = await newUser('rb');
  const list = expectOk(await call('GET', '/v1/routers', { auth: { token: a.token } }));
  assert.equal(list.total, 1);
  const router = list.items[0];
  assert.equal(router.strategy, 'round-robin');
  assert.equal(router.apiKeyCount, 1);
  assert.equal(router.providerCount, 0);
  assert.deepEqual(expectOk(await call('GET', `/v1/routers/${router.id}`, { auth: { token: a.token } })), router);
  expectError(await call('GET', `/v1/routers/${b.routerId}`, { auth: { token: a.token } }), 404, 'not_found');
});

test('POST /v1/routers/active: own router only', async () => {
  const a = await newUser('raa');
  const b = await newUser('rab');
  const session = await signIn(a.email);
  expectError(await call('POST', '/v1/routers/active', { auth: session, body: { routerInstanceId: b.routerId } }), 404, 'not_found');
  assert.deepEqual(expectOk(await call('POST', '/v1/routers/active', { auth: session, body: { routerInstanceId: a.routerId } })), { activeRouterInstanceId: a.routerId });
});
