// Key-based providers and verify-key, against the vendor stand-ins that scripts/test.ts started
// (the web server reaches them through ADAPTER_ONE_BASE_URL / ADAPTER_TWO_BASE_URL).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { call, expectError, expectOk, newUser, type TestUser } from '../support/api';
import { assertProviderShape, providerRow } from '../support/providers';
import { standInClient } from '../support/vendors/stand-in';

const vendorOne = standInClient(process.env.TEST_ADAPTER_ONE_URL ?? '');
const vendorTwo = standInClient(process.env.TEST_ADAPTER_TWO_URL ?? '');
const newKey = (tag: string) => `${tag}_${randomBytes(8).toString('hex')}`;
const auth = (user: TestUser) => ({ token: user.token });

test('POST /v1/providers/verify-key: verified with the vendor name, read-only; 401 rejected; 502 unreachable', async () => {
  const user = await newUser('vk');
  const one = newKey('one');
  const two = newKey('two');
  await Promise.all([vendorOne.registerKey(one), vendorTwo.registerKey(two)]);

  const res = await call('POST', '/v1/providers/verify-key', {
    auth: auth(user),
    body: { adapterKind: 'adapter-one', credentials: { apiKey: one }, options: { region: 'ap-southeast' } },
  });
  assert.deepEqual(expectOk(res), { verified: true, provider: 'Kernel' });
  assert.ok(res.headers.get('x-ratelimit-limit'));
  assert.deepEqual(
    expectOk(await call('POST', '/v1/providers/verify-key', { auth: auth(user), body: { adapterKind: 'adapter-two', credentials: { apiKey: two } } })),
    { verified: true, provider: 'Browser Use' },
  );
  assert.deepEqual(
    (await vendorOne.calls(one)).map((c) => `${c.method} ${c.path}`),
    ['GET /browsers'],
  );
  assert.deepEqual(
    (await vendorTwo.calls(two)).map((c) => `${c.method} ${c.path}`),
    ['GET /billing/account'],
  );
  assert.deepEqual([await vendorOne.sessions(one), await vendorTwo.sessions(two)], [[], []], 'no browser started');

  for (const adapterKind of ['adapter-one', 'adapter-two']) {
    const rejected = await call('POST', '/v1/providers/verify-key', { auth: auth(user), body: { adapterKind, credentials: { apiKey: newKey('bad') } } });
    expectError(rejected, 401, 'provider_rejected_key');
    assert.match(rejected.body.error.message, /rejected the API key/);
  }
  const down = newKey('down');
  await vendorTwo.registerKey(down, 'outage');
  const unreachable = await call('POST', '/v1/providers/verify-key', { auth: auth(user), body: { adapterKind: 'adapter-two', credentials: { apiKey: down } } });
  expectError(unreachable, 502, 'provider_unreachable');
  assert.match(unreachable.body.error.message, /Browser Use could not be reached/);
  assert.equal(JSON.stringify(unreachable.body).includes(down), false, 'the key is not echoed');
});

test('verify-key and the key form validate adapterKind, credentials and each adapter option', async () => {
  const user = await newUser('vkval');
  const key = { apiKey: 'irrelevant' };
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ credentials: key }, /adapterKind: use one of adapter-one, adapter-two/],
    [{ adapterKind: 'adapter-three', credentials: key }, /adapterKind: use one of adapter-one, adapter-two/],
    [{ adapterKind: 'adapter-one' }, /credentials: required/],
    [{ adapterKind: 'adapter-one', credentials: {} }, /credentials\.apiKey: required/],
    [{ adapterKind: 'adapter-one', credentials: { apiKey: '  ' } }, /credentials\.apiKey: enter the API key/],
    [{ adapterKind: 'adapter-one', credentials: key, options: { region: 'us-west' } }, /options\.region: use one of us-east, eu-west, ap-southeast/],
    [{ adapterKind: 'adapter-one', credentials: key, options: { stealth: 'yes' } }, /options\.stealth: use true or false/],
    [{ adapterKind: 'adapter-one', credentials: key, options: { timeoutSeconds: 9 } }, /options\.timeoutSeconds: use 10 to 259200/],
    [{ adapterKind: 'adapter-one', credentials: key, options: { timeoutSeconds: 259_201 } }, /options\.timeoutSeconds: use 10 to 259200/],
    [{ adapterKind: 'adapter-one', credentials: key, options: { timeoutMinutes: 5 } }, /options\.timeoutMinutes: not a field of this request/],
    [{ adapterKind: 'adapter-two', credentials: key, options: { timeoutMinutes: 0 } }, /options\.timeoutMinutes: use 1 to 240/],
    [{ adapterKind: 'adapter-two', credentials: key, options: { timeoutMinutes: 241 } }, /options\.timeoutMinutes: use 1 to 240/],
    [{ adapterKind: 'adapter-two', credentials: key, options: { proxyCountryCode: 'US' } }, /options\.proxyCountryCode: use two lowercase letters/],
    [{ adapterKind: 'adapter-two', credentials: key, options: { proxyCountryCode: 'usa' } }, /options\.proxyCountryCode: use two lowercase letters/],
  ];
  for (const [body, message] of cases) {
    for (const path of ['/v1/providers/verify-key', '/v1/providers']) {
      const res = await call('POST', path, { auth: auth(user), body: path === '/v1/providers' ? { slug: 'k', ...body } : body });
      expectError(res, 400, 'validation_error');
      assert.match(res.body.error.message, message, `${path} ${JSON.stringify(body)}`);
    }
  }
  const withUrl = await call('POST', '/v1/providers', {
    auth: auth(user),
    body: { slug: 'k', adapterKind: 'adapter-one', credentials: key, url: 'ws://x', headers: {} },
  });
  expectError(withUrl, 400, 'validation_error');
  assert.match(withUrl.body.error.message, /url: not a field of this request; headers: not a field of this request/);
});

test('POST /v1/providers (key form): key checked without a browser, stored encrypted, never returned', async () => {
  const user = await newUser('keyform');
  const one = newKey('one');
  const two = newKey('two');
  await Promise.all([vendorOne.registerKey(one), vendorTwo.registerKey(two)]);

  const first = expectOk(
    await call('POST', '/v1/providers', {
      auth: auth(user),
      body: {
        slug: 'cloud-one',
        adapterKind: 'adapter-one',
        credentials: { apiKey: one },
        options: { region: 'eu-west', stealth: true, timeoutSeconds: 3_600 },
      },
    }),
    201,
  );
  assertProviderShape(first);
  assert.deepEqual(
    [first.slug, first.name, first.url, first.adapterKind, first.priority, first.weight, first.maxConcurrent, first.profile, first.enabled],
    ['cloud-one', 'cloud-one', null, 'adapter-one', 100, 100, null, null, true],
  );
  assert.deepEqual(first.capabilities, {
    providerKind: 'generic',
    browserCookies: 'unknown',
    targetCreate: 'unknown',
    targetGetTargets: 'unknown',
    fetchInterception: 'unknown',
    pageScreencast: 'unknown',
    targetCreateLatencyMs: null,
    advertisedMaxConcurrent: null,
    probedAt: null,
    probeDurationMs: null,
    errors: [],
  });
  const second = expectOk(
    await call('POST', '/v1/providers', {
      auth: auth(user),
      body: { slug: 'cloud-two', name: 'Cloud two', adapterKind: 'adapter-two', credentials: { apiKey: two }, priority: 3 },
    }),
    201,
  );
  assert.deepEqual([second.name, second.adapterKind, second.priority], ['Cloud two', 'adapter-two', 3]);

  assert.deepEqual([await vendorOne.sessions(one), await vendorTwo.sessions(two)], [[], []], 'adding never starts a vendor browser');
  const rowOne = await providerRow(user.routerId, 'cloud-one');
  const rowTwo = await providerRow(user.routerId, 'cloud-two');
  assert.deepEqual(rowOne!.options, { region: 'eu-west', stealth: true, timeoutSeconds: 3_600 });
  assert.deepEqual(rowTwo!.options, { timeoutMinutes: 240, proxyCountryCode: null }, 'adapter-two defaults: 240 minutes, no proxy');
  assert.equal(JSON.stringify([rowOne, rowTwo]).includes(one) || JSON.stringify([rowOne, rowTwo]).includes(two), false, 'keys encrypted at rest');
  assert.deepEqual([rowOne!.urlEncrypted, rowOne!.urlDisplay, rowOne!.headersEncrypted], [null, null, null]);

  const everything = JSON.stringify([
    expectOk(await call('GET', '/v1/providers', { auth: auth(user) })),
    expectOk(await call('GET', '/v1/providers/cloud-one', { auth: auth(user) })),
    expectOk(await call('GET', '/v1/providers/cloud-one/plaintext', { auth: auth(user) })),
  ]);
  assert.equal(everything.includes(one) || everything.includes(two), false, 'the API key never leaves');
  assert.deepEqual(expectOk(await call('GET', '/v1/providers/cloud-two/plaintext', { auth: auth(user) })), { slug: 'cloud-two', url: null, headers: null });

  const rejected = await call('POST', '/v1/providers', {
    auth: auth(user),
    body: { slug: 'cloud-bad', adapterKind: 'adapter-one', credentials: { apiKey: newKey('bad') } },
  });
  expectError(rejected, 401, 'provider_rejected_key');
  const down = newKey('down');
  await vendorOne.registerKey(down, 'outage');
  expectError(
    await call('POST', '/v1/providers', { auth: auth(user), body: { slug: 'cloud-down', adapterKind: 'adapter-one', credentials: { apiKey: down } } }),
    502,
    'provider_unreachable',
  );
  for (const slug of ['cloud-bad', 'cloud-down']) expectError(await call('GET', `/v1/providers/${slug}`, { auth: auth(user) }), 404, 'not_found');
  expectError(
    await call('POST', '/v1/providers', { auth: auth(user), body: { slug: 'cloud-one', adapterKind: 'adapter-one', credentials: { apiKey: one } } }),
    409,
    'conflict',
  );
});

test('key-based providers: PATCH refuses url and headers; test checks the saved key; reprobe is unavailable', async () => {
  const user = await newUser('keyops');
  const key = newKey('two');
  await vendorTwo.registerKey(key);
  expectOk(
    await call('POST', '/v1/providers', {
      auth: auth(user),
      body: { slug: 'cloud', adapterKind: 'adapter-two', credentials: { apiKey: key }, options: { timeoutMinutes: 30, proxyCountryCode: 'fr' } },
    }),
    201,
  );

  for (const [body, message] of [
    [{ url: 'ws://127.0.0.1:1/x' }, /^url: not available on a key-based provider/],
    [{ headers: { 'X-A': '1' } }, /^headers: not available on a key-based provider/],
    [{ url: 'ws://127.0.0.1:1/x', headers: null, name: 'x' }, /^url: .*; headers: not available/],
  ] as const) {
    const res = await call('PATCH', '/v1/providers/cloud', { auth: auth(user), body });
    expectError(res, 400, 'validation_error');
    assert.match(res.body.error.message, message);
  }
  const patched = expectOk(await call('PATCH', '/v1/providers/cloud', { auth: auth(user), body: { name: 'Cloud', weight: 5, enabled: false } }));
  assert.deepEqual([patched.name, patched.weight, patched.enabled, patched.url], ['Cloud', 5, false, null]);

  const ok = expectOk(await call('POST', '/v1/providers/cloud/test', { auth: auth(user) }));
  assert.equal(ok.ok, true);
  assert.ok(Number.isInteger(ok.latencyMs));
  assert.deepEqual(await vendorTwo.sessions(key), [], 'the test opened no browser');
  assert.deepEqual(
    (await vendorTwo.calls(key)).map((c) => `${c.method} ${c.path}`),
    ['GET /billing/account', 'GET /billing/account'],
  );

  await vendorTwo.registerKey(key, 'outage');
  const failed = expectOk(await call('POST', '/v1/providers/cloud/test', { auth: auth(user) }));
  assert.equal(failed.ok, false);
  assert.match(failed.reason, /Browser Use could not be reached/);

  const reprobe = await call('POST', '/v1/providers/cloud/reprobe', { auth: auth(user) });
  expectError(reprobe, 400, 'validation_error');
  assert.match(reprobe.body.error.message, /not available for key-based providers/);
  assert.deepEqual(expectOk(await call('DELETE', '/v1/providers/cloud', { auth: auth(user) })), { slug: 'cloud' });
});
