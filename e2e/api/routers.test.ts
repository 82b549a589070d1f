// Routers: list, get, create (with its first key), update with every range, delete, switches, agent defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectError, expectOk, newUser, signIn } from '../support/api';
import { seedMember, seedProfile, seedRouters, seedSession } from '../support/seed';

const routerFields = [
  'apiKeyCount',
  'connectionTimeoutMs',
  'cooldownDefaultMs',
  'cooldownFailureThreshold',
  'cooldownMinRequestVolume',
  'createdAt',
  'description',
  'healthCheckIntervalMs',
  'id',
  'kind',
  'name',
  'providerCount',
  'queueMaxSize',
  'queueTimeoutMs',
  'sessionIdleTimeoutMs',
  'slug',
  'strategy',
  'traceRedactNames',
  'updatedAt',
];

test('GET /v1/routers and /v1/routers/:id; another workspace is not_found', async () => {
  const a = await newUser('ra');
  const b = await newUser('rb');
  const list = expectOk(await call('GET', '/v1/routers', { auth: { token: a.token } }));
  assert.equal(list.total, 1);
  const router = list.items[0];
  assert.deepEqual(Object.keys(router).sort(), routerFields);
  assert.deepEqual(
    {
      strategy: router.strategy,
      kind: router.kind,
      cooldownDefaultMs: router.cooldownDefaultMs,
      cooldownFailureThreshold: router.cooldownFailureThreshold,
      cooldownMinRequestVolume: router.cooldownMinRequestVolume,
      connectionTimeoutMs: router.connectionTimeoutMs,
      sessionIdleTimeoutMs: router.sessionIdleTimeoutMs,
      queueMaxSize: router.queueMaxSize,
      queueTimeoutMs: router.queueTimeoutMs,
      healthCheckIntervalMs: router.healthCheckIntervalMs,
    },
    {
      strategy: 'round-robin',
      kind: 'route',
      cooldownDefaultMs: 30000,
      cooldownFailureThreshold: 0.5,
      cooldownMinRequestVolume: 3,
      connectionTimeoutMs: 15000,
      sessionIdleTimeoutMs: 300000,
      queueMaxSize: 50,
      queueTimeoutMs: 30000,
      healthCheckIntervalMs: 30000,
    },
  );
  assert.equal(router.apiKeyCount, 1);
  assert.equal(router.providerCount, 0);
  assert.deepEqual(router.traceRedactNames, []);
  assert.deepEqual(expectOk(await call('GET', `/v1/routers/${router.id}`, { auth: { token: a.token } })), router);
  for (const [method, path] of [
    ['GET', ''],
    ['PATCH', ''],
    ['DELETE', ''],
    ['GET', '/settings'],
    ['PATCH', '/settings'],
    ['GET', '/agent-settings'],
    ['PATCH', '/agent-settings'],
  ] as const) {
    expectError(
      await call(method, `/v1/routers/${b.routerId}${path}`, { auth: { token: a.token }, body: method === 'PATCH' ? {} : undefined }),
      404,
      'not_found',
    );
  }
  expectError(await call('GET', '/v1/routers'), 401, 'unauthenticated');
});

test('create: slug derived from the name (free suffix) or given (409 when taken); first key shown once', async () => {
  const user = await newUser('rc');
  const auth = { token: user.token };
  const first = expectOk(await call('POST', '/v1/routers', { auth, body: { name: 'Scraper Fleet!', description: 'for crawling' } }), 201);
  assert.equal(first.slug, 'scraper-fleet');
  assert.equal(first.description, 'for crawling');
  assert.equal(first.apiKeyCount, 1);
  assert.match(first.apiKey.plaintextKey, /^rkey_/);
  assert.equal(first.apiKey.routerInstanceId, first.id);
  const second = expectOk(await call('POST', '/v1/routers', { auth, body: { name: 'Scraper fleet' } }), 201);
  assert.equal(second.slug, 'scraper-fleet-2');
  expectError(await call('POST', '/v1/routers', { auth, body: { name: 'x', slug: 'scraper-fleet' } }), 409, 'conflict');
  const custom = expectOk(await call('POST', '/v1/routers', { auth, body: { name: 'Custom', slug: 'my-slug-1' } }), 201);
  assert.equal(custom.slug, 'my-slug-1');
  const list = expectOk(await call('GET', '/v1/routers', { auth }));
  assert.equal(JSON.stringify(list).includes(first.apiKey.plaintextKey), false, 'plaintext only in the create response');
});

test('create validation names the field', async () => {
  const user = await newUser('rcv');
  const auth = { token: user.token };
  for (const [body, field] of [
    [{}, 'name'],
    [{ name: 'x', slug: 'A' }, 'slug'],
    [{ name: 'x', slug: 'UPPER' }, 'slug'],
    [{ name: 'x', slug: 'a'.repeat(41) }, 'slug'],
    [{ name: 'x', bogus: 1 }, 'bogus'],
  ] as const) {
    const res = await call('POST', '/v1/routers', { auth, body });
    expectError(res, 400, 'validation_error');
    assert.match(res.body.error.message, new RegExp(field));
  }
});

test('PATCH enforces every range of the spec table and returns the full router', async () => {
  const user = await newUser('rp');
  const auth = { token: user.token };
  const path = `/v1/routers/${user.routerId}`;
  const ranges: [string, unknown, unknown][] = [
    ['connectionTimeoutMs', 999, 30_001],
    ['sessionIdleTimeoutMs', 9_999, 840_001],
    ['queueMaxSize', -1, 10_001],
    ['queueTimeoutMs', -1, 86_400_001],
    ['healthCheckIntervalMs', 4_999, 3_600_001],
    ['cooldownDefaultMs', -1, 86_400_001],
    ['cooldownFailureThreshold', -0.1, 1.1],
    ['cooldownMinRequestVolume', -1, 1_000_001],
    ['strategy', 'fastest', ''],
  ];
  for (const [field, low, high] of ranges) {
    for (const value of [low, high]) {
      const res = await call('PATCH', path, { auth, body: { [field]: value } });
      expectError(res, 400, 'validation_error');
      assert.match(res.body.error.message, new RegExp(field));
    }
  }
  expectError(await call('PATCH', path, { auth, body: { queueMaxSize: 1.5 } }), 400, 'validation_error');
  const edges = {
    connectionTimeoutMs: 1_000,
    sessionIdleTimeoutMs: 840_000,
    queueMaxSize: 0,
    queueTimeoutMs: 86_400_000,
    healthCheckIntervalMs: 5_000,
    cooldownDefaultMs: 0,
    cooldownFailureThreshold: 1,
    cooldownMinRequestVolume: 1_000_000,
    strategy: 'weighted',
    name: 'Renamed',
    description: null,
  };
  const updated = expectOk(await call('PATCH', path, { auth, body: edges }));
  for (const [k, v] of Object.entries(edges)) assert.deepEqual(updated[k], v, k);
  assert.deepEqual(Object.keys(updated).sort(), routerFields);
  for (const strategy of ['priority-chain', 'round-robin', 'least-connections', 'latency-optimized']) {
    assert.equal(expectOk(await call('PATCH', path, { auth, body: { strategy } })).strategy, strategy);
  }
});

test('members cannot change routers; admins can', async () => {
  const owner = await newUser('rmo');
  const member = await newUser('rmm');
  const admin = await newUser('rma');
  await seedMember(owner.workspaceId, member.userId, 'member');
  await seedMember(owner.workspaceId, admin.userId, 'admin');
  const headers = { 'x-workspace-id': owner.workspaceId };
  const m = { token: member.token };
  expectOk(await call('GET', '/v1/routers', { auth: m, headers }));
  expectOk(await call('GET', `/v1/routers/${owner.routerId}/settings`, { auth: m, headers }));
  expectError(await call('POST', '/v1/routers', { auth: m, headers, body: { name: 'no' } }), 403, 'forbidden');
  expectError(await call('PATCH', `/v1/routers/${owner.routerId}`, { auth: m, headers, body: { name: 'no' } }), 403, 'forbidden');
  expectError(await call('PATCH', `/v1/routers/${owner.routerId}`, { auth: m, headers, body: { traceRedactNames: ['acct'] } }), 403, 'forbidden');
  expectError(await call('DELETE', `/v1/routers/${owner.routerId}`, { auth: m, headers }), 403, 'forbidden');
  expectError(await call('PATCH', `/v1/routers/${owner.routerId}/settings`, { auth: m, headers, body: { webhooksEnabled: false } }), 403, 'forbidden');
  expectError(await call('PATCH', `/v1/routers/${owner.routerId}/agent-settings`, { auth: m, headers, body: { recordDefault: true } }), 403, 'forbidden');
  expectOk(await call('PATCH', `/v1/routers/${owner.routerId}`, { auth: { token: admin.token }, headers, body: { name: 'By admin' } }));
  assert.deepEqual(
    expectOk(await call('PATCH', `/v1/routers/${owner.routerId}`, { auth: { token: admin.token }, headers, body: { traceRedactNames: ['acct'] } }))
      .traceRedactNames,
    ['acct'],
  );
  assert.deepEqual(expectOk(await call('GET', `/v1/routers/${owner.routerId}`, { auth: m, headers })).traceRedactNames, ['acct'], 'members read it');
});

test('traceRedactNames: a list of header-token names, up to 50 of up to 100 characters; a bad one is 400 validation_error on its field, never a 500', async () => {
  const user = await newUser('rtn');
  const auth = { token: user.token };
  const path = `/v1/routers/${user.routerId}`;
  const bad: [unknown, string][] = [
    [Array.from({ length: 51 }, (_, i) => `name-${i}`), 'traceRedactNames'],
    [['ok', 'bad name'], 'traceRedactNames.1'],
    [['acct', 'x:y'], 'traceRedactNames.1'],
    [['café'], 'traceRedactNames.0'],
    [[''], 'traceRedactNames.0'],
    [['a'.repeat(101)], 'traceRedactNames.0'],
    [[7], 'traceRedactNames.0'],
    ['acct', 'traceRedactNames'],
    [null, 'traceRedactNames'],
  ];
  for (const [value, field] of bad) {
    const res = await call('PATCH', path, { auth, body: { traceRedactNames: value } });
    expectError(res, 400, 'validation_error');
    assert.ok(
      res.body.error.details.some((d: { path: string }) => d.path === field),
      `${JSON.stringify(value)}: ${JSON.stringify(res.body.error.details)}`,
    );
  }
  assert.deepEqual(expectOk(await call('GET', path, { auth })).traceRedactNames, [], 'nothing saved');
  const fifty = Array.from({ length: 50 }, (_, i) => (i === 0 ? 'a'.repeat(100) : `x-${i}`));
  assert.deepEqual(
    expectOk(await call('PATCH', path, { auth, body: { traceRedactNames: fifty } })).traceRedactNames,
    fifty,
    'the limits themselves are accepted',
  );
  // Every character of a header token; a repeat in another case is kept once.
  const names = ["!#$%&'*+-.^_`|~09AZaz", 'X-Site-Secret-Id', 'acct', 'ACCT', 'x-site-secret-id'];
  assert.deepEqual(expectOk(await call('PATCH', path, { auth, body: { traceRedactNames: names } })).traceRedactNames, [
    "!#$%&'*+-.^_`|~09AZaz",
    'X-Site-Secret-Id',
    'acct',
  ]);
  assert.deepEqual(expectOk(await call('GET', path, { auth })).traceRedactNames, ["!#$%&'*+-.^_`|~09AZaz", 'X-Site-Secret-Id', 'acct']);
  assert.deepEqual(expectOk(await call('PATCH', path, { auth, body: { traceRedactNames: [] } })).traceRedactNames, [], 'an empty list clears it');
});

test('delete: the only router is 409 last_router; otherwise providers and keys go, sessions stay', async () => {
  const user = await newUser('rd');
  const auth = { token: user.token };
  expectError(await call('DELETE', `/v1/routers/${user.routerId}`, { auth }), 409, 'last_router');
  const other = expectOk(await call('POST', '/v1/routers', { auth, body: { name: 'Temporary' } }), 201);
  const { db } = await import('../../lib/db');
  const session = await seedSession(user.workspaceId, other.id);
  assert.deepEqual(expectOk(await call('DELETE', `/v1/routers/${other.id}`, { auth })), { id: other.id, slug: other.slug });
  assert.equal(await db.routerKey.count({ where: { routerId: other.id } }), 0);
  assert.equal((await db.sessionLog.findUniqueOrThrow({ where: { id: session.id } })).routerId, null);
  expectError(await call('DELETE', `/v1/routers/${user.routerId}`, { auth }), 409, 'last_router');
});

test('100 routers → 402 fair_use_limit_reached', async () => {
  const user = await newUser('rcap');
  await seedRouters(user.workspaceId, 99);
  expectError(await call('POST', '/v1/routers', { auth: { token: user.token }, body: { name: 'one too many' } }), 402, 'fair_use_limit_reached');
});

test('settings: four switches, all on for a new router', async () => {
  const user = await newUser('rs');
  const auth = { token: user.token };
  const path = `/v1/routers/${user.routerId}/settings`;
  assert.deepEqual(expectOk(await call('GET', path, { auth })), {
    routerInstanceId: user.routerId,
    webhooksEnabled: true,
    profilesEnabled: true,
    replayEnabled: true,
    observabilityEnabled: true,
  });
  expectError(await call('PATCH', path, { auth, body: { webhooksEnabled: 'no' } }), 400, 'validation_error');
  const updated = expectOk(await call('PATCH', path, { auth, body: { replayEnabled: false, observabilityEnabled: false } }));
  assert.deepEqual(updated, {
    routerInstanceId: user.routerId,
    webhooksEnabled: true,
    profilesEnabled: true,
    replayEnabled: false,
    observabilityEnabled: false,
  });
  assert.deepEqual(expectOk(await call('GET', path, { auth })), updated);
});

test('agent settings: defaults, defaultProfile must exist or be null', async () => {
  const user = await newUser('rag');
  const auth = { token: user.token };
  const path = `/v1/routers/${user.routerId}/agent-settings`;
  assert.deepEqual(expectOk(await call('GET', path, { auth })), {
    routerInstanceId: user.routerId,
    recordDefault: false,
    observabilityDefault: false,
    defaultProfile: null,
    saveProfileDefault: false,
  });
  const missing = await call('PATCH', path, { auth, body: { defaultProfile: 'nope' } });
  expectError(missing, 400, 'validation_error');
  assert.match(missing.body.error.message, /defaultProfile/);
  await seedProfile(user.workspaceId, { slug: 'shop-login', name: 'Shop' });
  const other = await newUser('ragx');
  await seedProfile(other.workspaceId, { slug: 'theirs', name: 'Theirs' });
  expectError(await call('PATCH', path, { auth, body: { defaultProfile: 'theirs' } }), 400, 'validation_error');
  const set = expectOk(await call('PATCH', path, { auth, body: { defaultProfile: 'shop-login', recordDefault: true, saveProfileDefault: true } }));
  assert.deepEqual(set, {
    routerInstanceId: user.routerId,
    recordDefault: true,
    observabilityDefault: false,
    defaultProfile: 'shop-login',
    saveProfileDefault: true,
  });
  assert.equal(expectOk(await call('PATCH', path, { auth, body: { defaultProfile: null } })).defaultProfile, null);
});

test('router calls count against the daily cap', async () => {
  const user = await newUser('rrl');
  const res = await call('GET', `/v1/routers/${user.routerId}/settings`, { auth: { token: user.token } });
  assert.equal(res.headers.get('x-ratelimit-limit'), '5000');
});

test('POST /v1/routers/active: own router only', async () => {
  const a = await newUser('raa');
  const b = await newUser('rab');
  const session = await signIn(a.email);
  expectError(await call('POST', '/v1/routers/active', { auth: session, body: { routerInstanceId: b.routerId } }), 404, 'not_found');
  assert.deepEqual(expectOk(await call('POST', '/v1/routers/active', { auth: session, body: { routerInstanceId: a.routerId } })), {
    activeRouterInstanceId: a.routerId,
  });
});
