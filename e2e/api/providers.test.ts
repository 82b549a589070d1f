// Providers, address form (docs/api.md, "Providers"): real headless Chromium upstreams, probed over CDP.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectError, expectOk, newUser, type TestUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { assertFullyCapable, assertProviderShape, createProfileRow, openPages, providerRow } from '../support/providers';
import { refusedUrl, startRecordingUpstream, type RecordingUpstream } from '../support/upstreams';

let chromium: Chromium;
let other: Chromium;
let recorder: RecordingUpstream;
before(async () => {
  [chromium, other] = await Promise.all([launchChromium(), launchChromium()]);
  recorder = await startRecordingUpstream(chromium.port);
});
after(async () => {
  await recorder?.stop();
  await Promise.all([chromium?.stop(), other?.stop()]);
});

const auth = (user: TestUser) => ({ token: user.token });
const add = (user: TestUser, body: Record<string, unknown>) => call('POST', '/v1/providers', { auth: auth(user), body });

test('POST /v1/providers: tested and probed over CDP; stored encrypted; shown without query, credentials or headers', async () => {
  const user = await newUser('prov');
  const browserPath = new URL(chromium.wsUrl).pathname;
  const url = `${recorder.url.replace('ws://', 'ws://alice:pw@')}${browserPath}?token=s3cret-query`;
  const headers = { Authorization: 'Bearer upstream-s3cret', 'X-Team': 'qa' };
  const pagesBefore = await openPages(chromium.httpUrl);

  const res = await add(user, { slug: 'local-a', name: 'Local A', url, headers });
  const provider = expectOk(res, 201);
  assertProviderShape(provider);
  assert.equal(provider.slug, 'local-a');
  assert.equal(provider.name, 'Local A');
  assert.equal(provider.url, `${recorder.url}${browserPath}`);
  assert.equal(provider.ownerId, user.workspaceId);
  assert.equal(provider.adapterKind, null);
  assert.deepEqual([provider.priority, provider.weight, provider.maxConcurrent, provider.profile, provider.enabled], [100, 100, null, null, true]);
  assertFullyCapable(provider.capabilities);
  assert.ok(res.headers.get('x-ratelimit-limit'), 'counted');

  // Our headers reached the provider on the upgrade and on the pool-status check.
  const upgrade = recorder.seen.find((r) => r.upgrade && r.path.includes('token=s3cret-query'));
  assert.equal(upgrade?.headers.authorization, 'Bearer upstream-s3cret');
  assert.equal(upgrade?.headers['x-team'], 'qa');
  const status = recorder.seen.find((r) => !r.upgrade && r.path === '/pool/status');
  assert.equal(status?.headers.authorization, 'Bearer upstream-s3cret');
  assert.equal(await openPages(chromium.httpUrl), pagesBefore, 'the probe closed the page it opened');

  // At rest: ciphertext only; in responses: never a secret.
  const row = await providerRow(user.routerId, 'local-a');
  for (const secret of ['s3cret-query', 'upstream-s3cret', 'alice:pw']) {
    assert.equal(JSON.stringify(row).includes(secret), false, `${secret} stored in the clear`);
  }
  const read = expectOk(await call('GET', '/v1/providers/local-a', { auth: auth(user) }));
  assert.deepEqual(read, provider);
  const list = expectOk(await call('GET', '/v1/providers', { auth: auth(user) }));
  assert.equal(JSON.stringify([read, list]).match(/s3cret|alice/), null);

  const plain = expectOk(await call('GET', '/v1/providers/local-a/plaintext', { auth: auth(user) }));
  assert.deepEqual(plain, { slug: 'local-a', url, headers });
});

test('an http(s) browser base is resolved to its webSocketDebuggerUrl; name defaults to the slug', async () => {
  const user = await newUser('provhttp');
  const provider = expectOk(await add(user, { slug: 'by-base', url: chromium.httpUrl }), 201);
  assert.equal(provider.url, chromium.wsUrl);
  assert.equal(provider.name, 'by-base');
  assertFullyCapable(provider.capabilities);
  assert.equal(expectOk(await call('GET', '/v1/providers/by-base/plaintext', { auth: auth(user) })).url, chromium.wsUrl);
});

test('POST /v1/providers: validation names the field; duplicate slug is 409; nothing is saved', async () => {
  const user = await newUser('provval');
  const url = chromium.wsUrl;
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ url }, /slug: required/],
    [{ slug: 'double--hyphen', url }, /slug: use letters, digits and single hyphens/],
    [{ slug: '-edge', url }, /slug:/],
    [{ slug: 'under_score', url }, /slug:/],
    [{ slug: 'a'.repeat(65), url }, /slug: use at most 64/],
    [{ slug: 'verify-key', url }, /slug: this slug is reserved/],
    [{ slug: 'ok' }, /url: required/],
    [{ slug: 'ok', url: 'ftp://example.com/x' }, /url: use a ws:\/\/ or wss:\/\/ address/],
    [{ slug: 'ok', url: 'not a url' }, /url:/],
    [{ slug: 'ok', url, headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])) }, /headers: send at most 20 headers/],
    [{ slug: 'ok', url, headers: { 'X-Number': 5 } }, /headers\.X-Number: header values must be strings/],
    [{ slug: 'ok', url, headers: { 'Bad Name': 'v' } }, /headers\.Bad Name: not a valid HTTP header name/],
    [{ slug: 'ok', url, headers: { Upgrade: 'h2c' } }, /headers\.Upgrade: set by the WebSocket handshake/],
    [{ slug: 'ok', url, headers: { 'X-Long': 'v'.repeat(4_097) } }, /headers\.X-Long: header values use at most 4096/],
    [{ slug: 'ok', url, priority: 0 }, /priority: use 1 to 1000/],
    [{ slug: 'ok', url, weight: 1001 }, /weight: use 1 to 1000/],
    [{ slug: 'ok', url, weight: 1.5 }, /weight: use a whole number/],
    [{ slug: 'ok', url, priority: '5' }, /priority: use a whole number from 1 to 1000/],
    [{ slug: 'ok', url, maxConcurrent: 0 }, /maxConcurrent: use 1 to 1000/],
    [{ slug: 'ok', url, maxConcurrent: 1001 }, /maxConcurrent: use 1 to 1000/],
    [{ slug: 'ok', url, profile: null }, /profile: use a profile slug, or omit the field/],
    [{ slug: 'ok', url, profile: 'no-such-profile' }, /profile: no profile "no-such-profile" in this workspace/],
    [{ slug: 'ok', url, enabled: false }, /enabled: not a field of this request/],
  ];
  for (const [body, message] of cases) {
    const res = await add(user, body);
    expectError(res, 400, 'validation_error');
    assert.match(res.body.error.message, message, JSON.stringify(body).slice(0, 80));
  }
  expectError(
    await call('POST', '/v1/providers', { auth: auth(user), rawBody: '{nope', headers: { 'content-type': 'application/json' } }),
    400,
    'validation_error',
  );
  assert.equal(expectOk(await call('GET', '/v1/providers', { auth: auth(user) })).total, 0);

  expectOk(await add(user, { slug: 'Same-Slug', url }), 201);
  const conflict = await add(user, { slug: 'Same-Slug', url });
  expectError(conflict, 409, 'conflict');
  assert.match(conflict.body.error.message, /Same-Slug/);
  // Slugs are per router: the same slug on another workspace's router is fine.
  expectOk(await add(await newUser('provval2'), { slug: 'Same-Slug', url }), 201);
});

test('maxConcurrent, priority, weight and a pinned profile are kept; PATCH changes them; profile null unpins', async () => {
  const user = await newUser('provpatch');
  await createProfileRow(user.workspaceId, 'shop-login');
  await createProfileRow(user.workspaceId, 'other-login');
  const created = expectOk(await add(user, { slug: 'pinned', url: chromium.wsUrl, priority: 7, weight: 900, maxConcurrent: 3, profile: 'shop-login' }), 201);
  assert.deepEqual([created.priority, created.weight, created.maxConcurrent, created.profile], [7, 900, 3, 'shop-login']);

  const patch = (body: Record<string, unknown>) => call('PATCH', '/v1/providers/pinned', { auth: auth(user), body });
  const renamed = expectOk(await patch({ name: 'Renamed', priority: 1, weight: 1000, maxConcurrent: null, profile: 'other-login', enabled: false }));
  assertProviderShape(renamed);
  assert.deepEqual(
    [renamed.name, renamed.priority, renamed.weight, renamed.maxConcurrent, renamed.profile, renamed.enabled],
    ['Renamed', 1, 1000, null, 'other-login', false],
  );
  assert.deepEqual(renamed.capabilities, created.capabilities, 'no re-probe without a new address');
  assert.ok(renamed.updatedAt > created.updatedAt);
  const unpinned = expectOk(await patch({ profile: null, enabled: true }));
  assert.deepEqual([unpinned.profile, unpinned.enabled], [null, true]);
  const { updatedAt: _after, ...unchanged } = expectOk(await patch({}));
  const { updatedAt: _before, ...expected } = unpinned;
  assert.deepEqual(unchanged, expected, 'an empty PATCH changes nothing');

  for (const [body, message] of [
    [{ priority: 0 }, /priority: use 1 to 1000/],
    [{ maxConcurrent: 2000 }, /maxConcurrent: use 1 to 1000/],
    [{ profile: 'missing' }, /profile: no profile "missing"/],
    [{ enabled: 'yes' }, /enabled: use true or false/],
    [{ slug: 'renamed' }, /slug: not a field of this request/],
    [{ url: 'http//broken' }, /url:/],
    [{ headers: { Connection: 'close' } }, /headers\.Connection: set by the WebSocket handshake/],
  ] as const) {
    const res = await patch(body);
    expectError(res, 400, 'validation_error');
    assert.match(res.body.error.message, message);
  }
  expectError(await call('PATCH', '/v1/providers/nope', { auth: auth(user), body: { name: 'x' } }), 404, 'not_found');
});

test('PATCH url: the new address is tested and probed before it replaces the old one', async () => {
  const user = await newUser('provurl');
  const created = expectOk(await add(user, { slug: 'moving', url: chromium.wsUrl, headers: { 'X-Keep': '1' } }), 201);

  const moved = expectOk(await call('PATCH', '/v1/providers/moving', { auth: auth(user), body: { url: other.wsUrl } }));
  assert.equal(moved.url, other.wsUrl);
  assertFullyCapable(moved.capabilities);
  assert.ok(moved.capabilities.probedAt > created.capabilities.probedAt);
  assert.deepEqual(
    expectOk(await call('GET', '/v1/providers/moving/plaintext', { auth: auth(user) })).headers,
    { 'X-Keep': '1' },
    'headers kept when only the url changes',
  );

  const dead = await refusedUrl();
  const refused = await call('PATCH', '/v1/providers/moving', { auth: auth(user), body: { url: dead, name: 'Not applied' } });
  expectError(refused, 502, 'provider_unreachable');
  assert.match(refused.body.error.message, /the provider failed its test: connection refused by 127\.0\.0\.1:\d+/);
  const unchanged = expectOk(await call('GET', '/v1/providers/moving', { auth: auth(user) }));
  assert.deepEqual([unchanged.url, unchanged.name], [other.wsUrl, 'moving']);

  const reheadered = expectOk(await call('PATCH', '/v1/providers/moving', { auth: auth(user), body: { headers: null } }));
  assert.ok(reheadered.capabilities.probedAt > moved.capabilities.probedAt, 'new headers are tested too');
  assert.deepEqual(expectOk(await call('GET', '/v1/providers/moving/plaintext', { auth: auth(user) })).headers, {});
});

test('GET /v1/providers pages with page and pageSize (default 1 and 25, at most 100)', async () => {
  const user = await newUser('provlist');
  for (const slug of ['first', 'second', 'third']) expectOk(await add(user, { slug, url: chromium.wsUrl }), 201);
  const all = expectOk(await call('GET', '/v1/providers', { auth: auth(user) }));
  assert.deepEqual([all.total, all.page, all.pageSize], [3, 1, 25]);
  assert.deepEqual(
    all.items.map((p: { slug: string }) => p.slug),
    ['first', 'second', 'third'],
  );
  all.items.forEach(assertProviderShape);
  const page2 = expectOk(await call('GET', '/v1/providers?page=2&pageSize=2', { auth: auth(user) }));
  assert.deepEqual([page2.total, page2.page, page2.pageSize, page2.items.map((p: { slug: string }) => p.slug)], [3, 2, 2, ['third']]);
  assert.deepEqual(expectOk(await call('GET', '/v1/providers?page=9', { auth: auth(user) })).items, []);
  for (const [query, message] of [
    ['pageSize=101', /pageSize: use 1 to 100/],
    ['page=0', /page: pages start at 1/],
    ['pageSize=abc', /pageSize:/],
  ] as const) {
    const res = await call('GET', `/v1/providers?${query}`, { auth: auth(user) });
    expectError(res, 400, 'validation_error');
    assert.match(res.body.error.message, message);
  }
});

test('test, reprobe, test-url and probe against a live browser; after it stops they say so', async () => {
  const user = await newUser('provtest');
  const third = await launchChromium();
  try {
    const created = expectOk(await add(user, { slug: 'short-lived', url: third.wsUrl }), 201);
    const ok = expectOk(await call('POST', '/v1/providers/short-lived/test', { auth: auth(user) }));
    assert.deepEqual(Object.keys(ok).sort(), ['latencyMs', 'ok']);
    assert.equal(ok.ok, true);
    assert.ok(Number.isInteger(ok.latencyMs) && ok.latencyMs >= 0);

    const reprobed = expectOk(await call('POST', '/v1/providers/short-lived/reprobe', { auth: auth(user) }));
    assertProviderShape(reprobed);
    assertFullyCapable(reprobed.capabilities);
    assert.ok(reprobed.capabilities.probedAt > created.capabilities.probedAt);

    const byUrl = expectOk(await call('POST', '/v1/providers/test-url', { auth: auth(user), body: { url: third.httpUrl, headers: { 'X-Any': '1' } } }));
    assert.equal(byUrl.ok, true);
    assert.deepEqual(expectOk(await call('POST', '/v1/providers/probe', { auth: auth(user), body: { url: third.wsUrl } })), {
      detectedKind: 'generic',
      advertisedMaxConcurrent: null,
    });

    await third.stop();
    const failed = expectOk(await call('POST', '/v1/providers/short-lived/test', { auth: auth(user) }));
    assert.deepEqual(Object.keys(failed).sort(), ['ok', 'reason']);
    assert.equal(failed.ok, false);
    assert.match(failed.reason, /connection refused by 127\.0\.0\.1:\d+/);
    const stale = await call('POST', '/v1/providers/short-lived/reprobe', { auth: auth(user) });
    expectError(stale, 502, 'provider_unreachable');
    assert.deepEqual(
      expectOk(await call('GET', '/v1/providers/short-lived', { auth: auth(user) })).capabilities,
      reprobed.capabilities,
      'a failed reprobe keeps the last capabilities',
    );
    assert.deepEqual(expectOk(await call('POST', '/v1/providers/probe', { auth: auth(user), body: { url: third.wsUrl } })), {
      detectedKind: null,
      advertisedMaxConcurrent: null,
    });
  } finally {
    await third.stop();
  }
  for (const path of ['/v1/providers/test-url', '/v1/providers/probe']) {
    const res = await call('POST', path, { auth: auth(user), body: { url: 'https://', headers: { 'X-A': 1 } } });
    expectError(res, 400, 'validation_error');
    assert.match(res.body.error.message, /url: .*; headers\.X-A: header values must be strings/);
    expectError(await call('POST', path, { auth: auth(user) }), 400, 'validation_error');
  }
  expectError(await call('POST', '/v1/providers/missing/test', { auth: auth(user) }), 404, 'not_found');
  expectError(await call('POST', '/v1/providers/missing/reprobe', { auth: auth(user) }), 404, 'not_found');
});

test('DELETE /v1/providers/:slug answers { slug }; the provider is gone', async () => {
  const user = await newUser('provdel');
  expectOk(await add(user, { slug: 'to-delete', url: chromium.wsUrl }), 201);
  assert.deepEqual(expectOk(await call('DELETE', '/v1/providers/to-delete', { auth: auth(user) })), { slug: 'to-delete' });
  expectError(await call('GET', '/v1/providers/to-delete', { auth: auth(user) }), 404, 'not_found');
  expectError(await call('DELETE', '/v1/providers/to-delete', { auth: auth(user) }), 404, 'not_found');
  assert.equal(await providerRow(user.routerId, 'to-delete'), null);
});
