// Access taken away ends live sessions: revoking a router key, rotating a router's keys or
// deleting the account (which marks its workspaces) closes the sessions opened with those keys,
// or in those workspaces, within a second, with a close code and reason the client can read; the
// session rows end `closed` with that reason; the keys (and the marked workspace) are refused
// from the very next connect or data-API call.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectOk, newUser, signIn } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { cdp, connectUrl, eventually, expectOpened, expectRefused, PROXY, routerKey, type Opened } from '../support/connect';
import { dataApi } from '../support/data-api';
import { addProvider } from '../support/providers';

let browser: Chromium;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.stop();
});

/** The client's close frame, within `ms` of now. */
async function closedWithin(s: Opened, ms: number): Promise<{ code: number; reason: string }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`session ${s.sessionId} still open after ${ms} ms`)), ms)));
  try {
    return await Promise.race([s.closed, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function endedRow(sessionId: string) {
  const { db } = await import('../../lib/db');
  return eventually(
    async () => {
      const row = await db.sessionLog.findUnique({ where: { id: sessionId } });
      return row && row.state !== 'active' ? row : null;
    },
    5_000,
    `the end of ${sessionId}`,
  );
}

test('DELETE /v1/api-keys/:id closes the sessions opened with that key within a second (4001); other keys keep theirs', async () => {
  const user = await newUser('revoke-live');
  const auth = { token: user.token };
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browser.wsUrl });
  const first = await routerKey(user.workspaceId, user.routerId);
  const firstId = expectOk(await call('GET', '/v1/api-keys', { auth })).items[0].id as string;
  const second = expectOk(await call('POST', '/v1/api-keys', { auth, body: { label: 'second', routerInstanceId: user.routerId } }), 201);
  const [doomed, doomedToo, kept] = await Promise.all([
    expectOpened(connectUrl(first)),
    expectOpened(connectUrl(first)),
    expectOpened(connectUrl(second.plaintextKey)),
  ]);

  expectOk(await call('DELETE', `/v1/api-keys/${firstId}`, { auth }));
  const started = Date.now();
  for (const s of [doomed, doomedToo])
    assert.deepEqual(await closedWithin(s, 1_000 - (Date.now() - started)), {
      code: 4001,
      reason: "router key revoked: this key was revoked (the router's Keys page); connect with one of its current keys",
    });
  // The revoked key is refused on the very next connect (no cache to wait out).
  assert.match((await expectRefused(connectUrl(first), 401)).body, /revoked/);
  const version = await cdp(kept.ws, 'Browser.getVersion');
  assert.match(version.product, /Chrome/, 'a session of another key keeps running');

  for (const s of [doomed, doomedToo]) {
    const row = await endedRow(s.sessionId);
    assert.equal(row.state, 'closed');
    assert.equal(row.errorReason, 'router key revoked');
  }
  kept.ws.close();
});

test('POST /v1/api-keys/rotate closes the sessions of every rotated key (4002); the new key connects', async () => {
  const user = await newUser('rotate-live');
  const auth = { token: user.token };
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browser.wsUrl });
  const first = await routerKey(user.workspaceId, user.routerId);
  const second = expectOk(await call('POST', '/v1/api-keys', { auth, body: { label: 'second', routerInstanceId: user.routerId } }), 201);
  const sessions = await Promise.all([expectOpened(connectUrl(first)), expectOpened(connectUrl(second.plaintextKey))]);

  const rotated = expectOk(await call('POST', '/v1/api-keys/rotate', { auth }), 201);
  const started = Date.now();
  for (const s of sessions)
    assert.deepEqual(await closedWithin(s, 1_000 - (Date.now() - started)), {
      code: 4002,
      reason: "router key rotated: this key was replaced by a rotation; connect with the new key (the router's Keys page)",
    });
  await expectRefused(connectUrl(first), 401);
  await expectRefused(connectUrl(second.plaintextKey), 401);
  const fresh = await expectOpened(connectUrl(rotated.plaintextKey));
  await cdp(fresh.ws, 'Browser.getVersion');
  fresh.ws.close();
  for (const s of sessions) {
    const row = await endedRow(s.sessionId);
    assert.deepEqual([row.state, row.errorReason], ['closed', 'router key rotated']);
  }
});

test('DELETE /v1/account closes the sessions of the workspaces it marks (4003); they are 402 until undelete', async () => {
  const user = await newUser('delete-live');
  const other = await newUser('delete-live-other');
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browser.wsUrl });
  await addProvider(other.workspaceId, other.routerId, { slug: 'a', url: browser.wsUrl });
  const key = await routerKey(user.workspaceId, user.routerId);
  const owned = await expectOpened(connectUrl(key));
  const elsewhere = await expectOpened(connectUrl(await routerKey(other.workspaceId, other.routerId)));

  expectOk(await call('DELETE', '/v1/account', { auth: { token: user.token } }));
  const started = Date.now();
  assert.deepEqual(await closedWithin(owned, 1_000), {
    code: 4003,
    reason: 'workspace marked for deletion: its account was deleted; restore the account within 30 days to connect again',
  });
  assert.ok(Date.now() - started < 1_000);
  const { db } = await import('../../lib/db');
  assert.ok((await db.workspace.findUniqueOrThrow({ where: { id: user.workspaceId } })).deletionRequestedAt, 'the workspace carries the mark');
  assert.match((await expectRefused(connectUrl(key), 402)).body, /workspace is suspended/);
  const data = await dataApi('content', key, { url: 'https://example.com/' });
  assert.equal(data.status, 402);
  assert.match(data.text, /workspace is suspended/);
  const status = await fetch(`${PROXY.replace(/^ws/, 'http')}/v1/status?token=${key}`);
  assert.deepEqual([status.status, (await status.text()).trim()], [402, 'the workspace is suspended']);
  await cdp(elsewhere.ws, 'Browser.getVersion'); // another account's workspace is untouched
  const row = await endedRow(owned.sessionId);
  assert.deepEqual([row.state, row.errorReason], ['closed', 'workspace marked for deletion']);

  expectOk(await call('POST', '/v1/account/undelete', { auth: await signIn(user.email) }));
  assert.equal((await db.workspace.findUniqueOrThrow({ where: { id: user.workspaceId } })).deletionRequestedAt, null);
  const again = await expectOpened(connectUrl(key));
  await cdp(again.ws, 'Browser.getVersion');
  again.ws.close();
  elsewhere.ws.close();
});
