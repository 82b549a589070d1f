// The key-based adapters, called directly as the connect path will call them, against the vendor
// stand-ins (real HTTP servers playing each vendor's API and handing out real Chromium browsers).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { FakeClock } from '../../proxy/engine/clock';
import { createAdapterOne, KEEP_FOR_RECONNECT_MS } from '../../lib/providers/adapters/adapter-one';
import { createAdapterTwo } from '../../lib/providers/adapters/adapter-two';
import { VendorError } from '../../lib/providers/adapters/types';
import { connectCdp } from '../../lib/providers/cdp-client';
import { egressPolicy } from '../../lib/net/egress-policy';
import { freePort } from '../../scripts/lib/ports';
import { startAdapterOneVendor } from '../support/vendors/adapter-one';
import { startAdapterTwoVendor } from '../support/vendors/adapter-two';
import { standInClient, type VendorStandIn } from '../support/vendors/stand-in';

// The stand-ins started by scripts/test.ts, or our own when this file runs alone.
let vendorOneUrl = process.env.TEST_ADAPTER_ONE_URL ?? '';
let vendorTwoUrl = process.env.TEST_ADAPTER_TWO_URL ?? '';
const own: VendorStandIn[] = [];
before(async () => {
  if (!vendorOneUrl) {
    const s = await startAdapterOneVendor();
    own.push(s);
    vendorOneUrl = s.url;
  }
  if (!vendorTwoUrl) {
    const s = await startAdapterTwoVendor();
    own.push(s);
    vendorTwoUrl = s.url;
  }
});
after(() => Promise.all(own.map((s) => s.stop())));

const newKey = (tag: string) => `${tag}_${randomBytes(8).toString('hex')}`;

/** Proves a connect URL leads to a live browser: one CDP round trip. */
async function browserAnswers(connectUrl: string): Promise<boolean> {
  try {
    const connection = await connectCdp(connectUrl, {}, 3_000, 3_000, egressPolicy());
    const version = await connection.socket.send('Browser.getVersion', {}, undefined, 3_000);
    connection.socket.close();
    return typeof version.product === 'string';
  } catch {
    return false;
  }
}

async function expectVendorError(promise: Promise<unknown>, kind: VendorError['kind'], pattern: RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof VendorError, `expected a VendorError, got ${String(error)}`);
    assert.equal(error.kind, kind);
    assert.match(error.message, pattern);
    return true;
  });
}

test('adapter-one: verifyKey is read-only; rejected and unreachable keys are told apart', async () => {
  const vendor = standInClient(vendorOneUrl);
  const adapter = createAdapterOne({ baseUrl: vendorOneUrl });
  const key = newKey('one');
  await vendor.registerKey(key);
  assert.deepEqual(await adapter.verifyKey({ apiKey: key }), { displayName: 'Kernel' });
  assert.deepEqual(
    (await vendor.calls(key)).map((c) => `${c.method} ${c.path}`),
    ['GET /browsers'],
  );
  assert.deepEqual(await vendor.sessions(key), [], 'no browser was started');

  await expectVendorError(adapter.verifyKey({ apiKey: newKey('unknown') }), 'rejected_key', /rejected the API key \(HTTP 401\)/);
  const down = newKey('down');
  await vendor.registerKey(down, 'outage');
  await expectVendorError(adapter.verifyKey({ apiKey: down }), 'unreachable', /could not be reached/);
  const closed = createAdapterOne({ baseUrl: `http://127.0.0.1:${await freePort()}` });
  await expectVendorError(closed.verifyKey({ apiKey: key }), 'unreachable', /could not be reached \(ECONNREFUSED\)/);
  assert.equal(JSON.stringify(await vendor.calls(key)).includes(key), false, 'the key is never echoed into call records');
});

test('adapter-one: a session is a live vendor browser, kept 15 minutes for a reconnect, then deleted', async () => {
  const vendor = standInClient(vendorOneUrl);
  const clock = new FakeClock(Date.now());
  const adapter = createAdapterOne({ baseUrl: vendorOneUrl, timers: clock });
  const key = newKey('one');
  await vendor.registerKey(key);
  const credentials = { apiKey: key };

  const first = await adapter.createSession(credentials, { region: 'eu-west', stealth: true, timeoutSeconds: 1_800 }, { reuseKey: 'client-1' });
  assert.equal(first.reused, false);
  assert.match(first.connectUrl, /^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);
  assert.ok(await browserAnswers(first.connectUrl));
  const [created] = await vendor.sessions(key);
  assert.deepEqual(created!.options, { stealth: true, timeout_seconds: 1_800, region: 'eu-west' });

  const released = await adapter.releaseSession(credentials, { ...first, reuseKey: 'client-1' }, 'disconnect');
  assert.deepEqual(released, { stopped: false, keptUntil: clock.now() + KEEP_FOR_RECONNECT_MS });
  assert.ok(await browserAnswers(first.connectUrl), 'still running for a reconnect');

  clock.advance(14 * 60_000);
  const again = await adapter.createSession(credentials, { stealth: false, timeoutSeconds: 900 }, { reuseKey: 'client-1' });
  assert.deepEqual(again, { connectUrl: first.connectUrl, vendorSessionId: first.vendorSessionId, reused: true });
  assert.equal((await vendor.sessions(key)).length, 1, 'no second vendor browser');

  await adapter.releaseSession(credentials, { ...again, reuseKey: 'client-1' }, 'close');
  clock.advance(KEEP_FOR_RECONNECT_MS - 1);
  await adapter.kept.idle();
  assert.equal((await vendor.sessions(key))[0]!.running, true);
  clock.advance(1);
  await adapter.kept.idle();
  const [stopped] = await vendor.sessions(key);
  assert.equal(stopped!.running, false);
  assert.ok(stopped!.stoppedAt);
  assert.ok((await vendor.calls(key)).some((c) => c.method === 'DELETE' && c.path === `/browsers/${first.vendorSessionId}`));
  assert.equal(await browserAnswers(first.connectUrl), false);
});

test('adapter-one: a kept browser the vendor already ended is replaced; shutdown deletes kept browsers', async () => {
  const vendor = standInClient(vendorOneUrl);
  const clock = new FakeClock(Date.now());
  const adapter = createAdapterOne({ baseUrl: vendorOneUrl, timers: clock });
  const key = newKey('one');
  await vendor.registerKey(key);
  const credentials = { apiKey: key };
  const options = { stealth: false, timeoutSeconds: 900 };

  const first = await adapter.createSession(credentials, options);
  await adapter.releaseSession(credentials, first, 'disconnect'); // kept under its own id
  // The vendor ends it on its own (its idle timeout), as Kernel may.
  await fetch(`${vendorOneUrl}/browsers/${first.vendorSessionId}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
  const second = await adapter.createSession(credentials, options, { reuseKey: first.vendorSessionId });
  assert.equal(second.reused, false);
  assert.notEqual(second.vendorSessionId, first.vendorSessionId);
  assert.ok(await browserAnswers(second.connectUrl));

  await adapter.releaseSession(credentials, second, 'disconnect');
  await adapter.shutdown();
  const sessions = await vendor.sessions(key);
  assert.deepEqual(
    sessions.map((s) => s.running),
    [false, false],
  );
  assert.equal(adapter.kept.size, 0);
});

test('adapter-two: verifyKey uses the account endpoint (404 means no such key); sessions are stopped on release', async () => {
  const vendor = standInClient(vendorTwoUrl);
  const adapter = createAdapterTwo({ baseUrl: vendorTwoUrl });
  const key = newKey('two');
  await vendor.registerKey(key);
  const credentials = { apiKey: key };
  assert.deepEqual(await adapter.verifyKey(credentials), { displayName: 'Browser Use' });
  assert.deepEqual(
    (await vendor.calls(key)).map((c) => `${c.method} ${c.path}`),
    ['GET /billing/account'],
  );
  await expectVendorError(adapter.verifyKey({ apiKey: newKey('unknown') }), 'rejected_key', /HTTP 404/);

  // The vendor's cdpUrl is the browser's http base: the adapter hands out its WebSocket address.
  const session = await adapter.createSession(credentials, { timeoutMinutes: 30, proxyCountryCode: 'de' });
  assert.match(session.connectUrl, /^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);
  assert.ok(await browserAnswers(session.connectUrl));
  const plain = await adapter.createSession(credentials, { timeoutMinutes: 240, proxyCountryCode: null });
  const sessions = await vendor.sessions(key);
  assert.deepEqual(
    sessions.map((s) => s.options),
    [
      { timeout: 30, proxyCountryCode: 'de' },
      { timeout: 240, proxyCountryCode: null },
    ],
  );

  assert.deepEqual(await adapter.releaseSession(credentials, session, 'disconnect'), { stopped: true, keptUntil: null });
  assert.deepEqual(await adapter.releaseSession(credentials, plain, 'close'), { stopped: true, keptUntil: null });
  const calls = (await vendor.calls(key)).filter((c) => c.method === 'PATCH');
  assert.deepEqual(
    calls.map((c) => c.body),
    [{ action: 'stop' }, { action: 'stop' }],
  );
  assert.deepEqual(
    (await vendor.sessions(key)).map((s) => s.running),
    [false, false],
  );
  assert.equal(await browserAnswers(session.connectUrl), false);
  // Releasing twice is harmless (the vendor already stopped it).
  assert.deepEqual(await adapter.releaseSession(credentials, session, 'error'), { stopped: true, keptUntil: null });
});

test('adapter-two: a rejected key or an unreachable vendor fails createSession without leaving a browser', async () => {
  const vendor = standInClient(vendorTwoUrl);
  const adapter = createAdapterTwo({ baseUrl: vendorTwoUrl });
  await expectVendorError(adapter.createSession({ apiKey: newKey('unknown') }, { timeoutMinutes: 5, proxyCountryCode: null }), 'rejected_key', /HTTP 401/);
  const down = newKey('down');
  await vendor.registerKey(down, 'outage');
  await expectVendorError(adapter.createSession({ apiKey: down }, { timeoutMinutes: 5, proxyCountryCode: null }), 'unreachable', /could not be reached/);
  assert.deepEqual(await vendor.sessions(down), []);
});
