// The daily bearer cap: counted groups only, bearer only, headers, 429 with Retry-After, wallet rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectError, expectOk, newUser, signIn } from '../support/api';

test('counted bearer calls carry the rate-limit headers; uncounted and cookie calls do not', async () => {
  const user = await newUser('rl');
  const res = await call('GET', '/v1/routers', { auth: { token: user.token } });
  expectOk(res);
  assert.equal(res.headers.get('x-ratelimit-limit'), '5000');
  assert.equal(res.headers.get('x-ratelimit-remaining'), '4999');
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  assert.equal(reset % 86_400, 0, 'midnight UTC');
  assert.ok(reset > Date.now() / 1000 && reset <= Date.now() / 1000 + 86_400);
  assert.equal((await call('GET', '/v1/me', { auth: { token: user.token } })).headers.get('x-ratelimit-limit'), null);
  assert.equal((await call('GET', '/v1/routers', { auth: await signIn(user.email) })).headers.get('x-ratelimit-limit'), null);
  assert.equal((await call('GET', '/v1/routers', { auth: { token: user.token } })).headers.get('x-ratelimit-remaining'), '4998');
});

test('over the cap: 429 rate_limited with Retry-After, per workspace', async () => {
  const user = await newUser('rlcap');
  const other = await newUser('rlother');
  const { db } = await import('../../lib/db');
  await db.workspace.update({ where: { id: user.workspaceId }, data: { dailyCapOverride: 3 } });
  const results = await Promise.all(Array.from({ length: 5 }, () => call('GET', '/v1/routers', { auth: { token: user.token } })));
  assert.equal(results.filter((r) => r.status === 200).length, 3);
  const limited = results.filter((r) => r.status === 429);
  assert.equal(limited.length, 2);
  for (const res of limited) {
    expectError(res, 429, 'rate_limited');
    const retry = Number(res.headers.get('retry-after'));
    assert.ok(retry >= 1 && retry <= 86_400);
    assert.equal(res.headers.get('x-ratelimit-remaining'), '0');
  }
  expectOk(await call('GET', '/v1/routers', { auth: { token: other.token } }));
  expectOk(await call('GET', '/v1/me', { auth: { token: user.token } }), 200);
});

test('the cap follows the wallet and enterprise', async () => {
  const user = await newUser('rlwallet');
  const { db } = await import('../../lib/db');
  await db.wallet.update({ where: { workspaceId: user.workspaceId }, data: { balanceMillicents: 1n } });
  assert.equal((await call('GET', '/v1/routers', { auth: { token: user.token } })).headers.get('x-ratelimit-limit'), '100000');
  assert.equal(expectOk(await call('GET', '/v1/me', { auth: { token: user.token } })).activeWorkspaceAccountState, 'paid');
  await db.wallet.update({ where: { workspaceId: user.workspaceId }, data: { balanceMillicents: 0n } });
  assert.equal((await call('GET', '/v1/routers', { auth: { token: user.token } })).headers.get('x-ratelimit-limit'), '5000');
  await db.workspace.update({ where: { id: user.workspaceId }, data: { enterprise: true } });
  assert.equal((await call('GET', '/v1/routers', { auth: { token: user.token } })).headers.get('x-ratelimit-limit'), '100000');
  assert.equal(expectOk(await call('GET', '/v1/me', { auth: { token: user.token } })).activeWorkspaceAccountState, 'enterprise');
});
