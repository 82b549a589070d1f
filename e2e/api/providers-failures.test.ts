// Providers that fail: one that accepts TCP and never answers the upgrade, one where nothing
// listens, one that answers the upgrade with 403. Each fails with a worded reason within the
// router's connectionTimeoutMs (set to 2 s here), never hanging the request.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectError, expectOk, newUser, type TestUser } from '../support/api';
import { setConnectionTimeout } from '../support/providers';
import { refusedUrl, startHangingUpstream, startRejectingUpstream, type Upstream } from '../support/upstreams';

const TIMEOUT_MS = 2_000;
// Room for the server's own work on a busy 2-core machine; a hang would blow far past it.
const SLACK_MS = 4_000;

let hanging: Upstream;
let rejecting: Upstream;
let refused: string;
let user: TestUser;
before(async () => {
  [hanging, rejecting, refused, user] = await Promise.all([startHangingUpstream(), startRejectingUpstream(403), refusedUrl(), newUser('provfail')]);
  await setConnectionTimeout(user.routerId, TIMEOUT_MS);
});
after(() => Promise.all([hanging?.stop(), rejecting?.stop()]));

const cases = () => [
  {
    label: 'hangs on the upgrade',
    url: hanging.url,
    reason: new RegExp(`no WebSocket upgrade from 127\\.0\\.0\\.1:\\d+ within ${TIMEOUT_MS} ms`),
    atLeast: TIMEOUT_MS - 100,
  },
  { label: 'refuses the connection', url: refused, reason: /connection refused by 127\.0\.0\.1:\d+/, atLeast: 0 },
  { label: 'rejects the upgrade with 403', url: rejecting.url, reason: /127\.0\.0\.1:\d+ refused the WebSocket upgrade with HTTP 403/, atLeast: 0 },
  {
    label: 'hangs on /json/version',
    url: hanging.url.replace('ws://', 'http://').replace(/\/devtools.*/, ''),
    reason: new RegExp(`no /json/version answer from 127\\.0\\.0\\.1:\\d+ within ${TIMEOUT_MS} ms`),
    atLeast: TIMEOUT_MS - 100,
  },
];

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await run();
  return { result, ms: Date.now() - started };
}

test('POST /v1/providers/test-url: HTTP 200 with ok false and the reason, within the timeout', async () => {
  for (const c of cases()) {
    const { result, ms } = await timed(() => call('POST', '/v1/providers/test-url', { auth: { token: user.token }, body: { url: c.url } }));
    const data = expectOk(result);
    assert.equal(data.ok, false, c.label);
    assert.match(data.reason, c.reason, c.label);
    assert.ok(ms >= c.atLeast && ms < TIMEOUT_MS + SLACK_MS, `${c.label}: took ${ms} ms`);
  }
});

test('POST /v1/providers: a provider that fails its test is refused with 502 and not saved', async () => {
  for (const [index, c] of cases().entries()) {
    const slug = `failing-${index}`;
    const { result, ms } = await timed(() => call('POST', '/v1/providers', { auth: { token: user.token }, body: { slug, url: c.url } }));
    expectError(result, 502, 'provider_unreachable');
    assert.match(result.body.error.message, /^the provider failed its test: /, c.label);
    assert.match(result.body.error.message, c.reason, c.label);
    assert.ok(ms < TIMEOUT_MS + SLACK_MS, `${c.label}: took ${ms} ms`);
    expectError(await call('GET', `/v1/providers/${slug}`, { auth: { token: user.token } }), 404, 'not_found');
  }
});

test('POST /v1/providers/probe: detectedKind null for each, within the timeout', async () => {
  await Promise.all(
    cases().map(async (c) => {
      const { result, ms } = await timed(() => call('POST', '/v1/providers/probe', { auth: { token: user.token }, body: { url: c.url } }));
      assert.deepEqual(expectOk(result), { detectedKind: null, advertisedMaxConcurrent: null }, c.label);
      assert.ok(ms < TIMEOUT_MS + SLACK_MS, `${c.label}: took ${ms} ms`);
    }),
  );
});
