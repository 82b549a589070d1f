// Key-based providers on the connect path: the vendor (a stand-in playing its API with real
// Chromium) starts a browser per session; at the end adapter-one keeps it for a reconnect and
// adapter-two stops it through the vendor API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { call, expectOk, newUser } from '../support/api';
import { cdp, connectUrl, eventually, expectOpened, routerKey } from '../support/connect';
import { standInClient } from '../support/vendors/stand-in';

const one = standInClient(process.env.TEST_ADAPTER_ONE_URL ?? '');
const two = standInClient(process.env.TEST_ADAPTER_TWO_URL ?? '');

async function keyRouter(tag: string, adapterKind: string, options: object, vendor: typeof one) {
  const apiKey = `${tag}_${randomBytes(8).toString('hex')}`;
  await vendor.registerKey(apiKey);
  const user = await newUser(tag);
  expectOk(await call('POST', '/v1/providers', { auth: { token: user.token }, body: { slug: 'vendor', adapterKind, credentials: { apiKey }, options } }), 201);
  return { apiKey, key: await routerKey(user.workspaceId, user.routerId) };
}

test('adapter-two: a vendor browser per session, stopped through the vendor API at the end', async () => {
  const { apiKey, key } = await keyRouter('vtwo', 'adapter-two', { timeoutMinutes: 5 }, two);
  const s = await expectOpened(connectUrl(key));
  assert.equal(s.provider, 'vendor');
  assert.match((await cdp(s.ws, 'Browser.getVersion')).product, /Chrome/);
  const [running] = await two.sessions(apiKey);
  assert.equal(running!.running, true);
  s.ws.close();
  await s.closed;
  await eventually(async () => (await two.sessions(apiKey))[0]!.running === false, 5_000, 'the vendor to stop the browser');
});

test('adapter-one: the browser is kept after the session and the next connect reuses it', async () => {
  const { apiKey, key } = await keyRouter('vone', 'adapter-one', { region: 'eu-west' }, one);
  const first = await expectOpened(connectUrl(key));
  await cdp(first.ws, 'Browser.getVersion');
  first.ws.close();
  await first.closed;
  const second = await expectOpened(connectUrl(key));
  assert.match((await cdp(second.ws, 'Browser.getVersion')).product, /Chrome/);
  second.ws.close();
  const sessions = await one.sessions(apiKey);
  assert.equal(sessions.length, 1, 'one vendor browser served both sessions');
  assert.equal(sessions[0]!.running, true, 'kept for the 15-minute reconnect window');
});

test('a vendor that refuses the key: 502 naming the vendor failure', async () => {
  const { apiKey, key } = await keyRouter('vbad', 'adapter-two', {}, two);
  await two.registerKey(apiKey, 'outage');
  const { expectRefused } = await import('../support/connect');
  const refused = await expectRefused(connectUrl(key), 502);
  assert.match(refused.body, /vendor:/);
});
