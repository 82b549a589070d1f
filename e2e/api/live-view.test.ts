// The dashboard's live view route, GET /api/sessions/:id/live (docs/recordings.md, "Watching"):
// who may watch (owner or admin of the session's workspace, signed in; another workspace's session
// is not found), what it refuses (a session not recorded, an ended one), and that it passes the
// proxy's events through as they come, over real sockets to a real recorded session.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { chromium } from 'playwright-core';
import { addMember, call, expectError, newUser, signIn, WEB, type TestUser } from '../support/api';
import { readEvents } from '../support/sse';
import { newestSessionId } from '../support/capture';
import { launchChromium, type Chromium } from '../support/chromium';
import { connectUrl, eventually, expectOpened, routerKey } from '../support/connect';
import { addProvider } from '../support/providers';
import { startTestSite, type TestSite } from '../support/test-site';
import { post } from '../../lib/billing/ledger';
import { db } from '../../lib/db';

const SLOW = { timeout: 120_000 };

let browser: Chromium;
let site: TestSite;

before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
});
after(async () => {
  await Promise.all([browser?.stop(), site?.close()]);
});

async function recordingUser(tag: string): Promise<TestUser & { key: string; cookie: string }> {
  const user = await newUser(tag);
  await addProvider(user.workspaceId, user.routerId, { slug: 'chromium', url: browser.wsUrl });
  await post(db, user.workspaceId, [{ kind: 'grant', amountMillicents: 10_000_000n, cause: `grant:${randomUUID()}` }]);
  return { ...user, key: await routerKey(user.workspaceId, user.routerId), ...(await signIn(user.email)) };
}

const live = (sessionId: string, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(`${WEB}/api/sessions/${sessionId}/live`, { headers, signal });

test('the owner watches a recorded session live through the web process; roles, other workspaces and ended sessions are refused', SLOW, async () => {
  const owner = await recordingUser('live-owner');
  const pw = await chromium.connectOverCDP(connectUrl(owner.key, { session_record: 'true' }));
  try {
    const page = pw.contexts()[0]!.pages()[0] ?? (await pw.contexts()[0]!.newPage());
    await page.goto(`${site.url}/animated?title=watched`);
    const sessionId = await newestSessionId(owner.workspaceId, { state: 'active', recording: { isNot: null } });

    // The stream: tabs first, then frames (JPEGs), as they come; not cached, not compressed.
    const abort = new AbortController();
    const response = await live(sessionId, { cookie: owner.cookie, 'accept-encoding': 'gzip, br' }, abort.signal);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.match(response.headers.get('cache-control') ?? '', /no-store/);
    assert.equal(response.headers.get('content-encoding'), null, 'events are not held back by compression');
    const events = await readEvents(response, (e) => e.filter((x) => x.event === 'frame').length >= 5);
    abort.abort();
    assert.equal(events[0]?.event, 'tabs');
    assert.ok(
      events[0]!.data.tabs.some((t: { url: string }) => t.url.includes('/animated')),
      JSON.stringify(events[0]!.data),
    );
    const frames = events.filter((e) => e.event === 'frame');
    assert.ok(frames.length >= 5, `${frames.length} frames`);
    assert.ok(
      Buffer.from(frames.at(-1)!.data.data, 'base64')
        .subarray(0, 2)
        .equals(Buffer.from([0xff, 0xd8])),
      'frames are JPEGs',
    );
    assert.ok(frames.at(-1)!.data.t > frames[0]!.data.t, 'frame times move on');

    // Who may watch: an admin yes; a member no (403); a bearer token no (dashboard only); no one
    // signed in no; someone of another workspace gets not_found, as for a session that does not exist.
    const admin = await newUser('live-admin');
    await addMember(owner.workspaceId, admin.userId, 'admin');
    const asAdmin = await live(sessionId, (await signIn(admin.email)) as { cookie: string });
    assert.equal(asAdmin.status, 200);
    await asAdmin.body!.cancel();
    const member = await newUser('live-member');
    await addMember(owner.workspaceId, member.userId, 'member');
    const asMember = await call('GET', `/api/sessions/${sessionId}/live`, { auth: await signIn(member.email) });
    expectError(asMember, 403, 'forbidden');
    expectError(await call('GET', `/api/sessions/${sessionId}/live`, { auth: { token: owner.token } }), 403, 'cookie_required');
    expectError(await call('GET', `/api/sessions/${sessionId}/live`), 401, 'unauthenticated');
    const stranger = await newUser('live-stranger');
    expectError(await call('GET', `/api/sessions/${sessionId}/live`, { auth: await signIn(stranger.email) }), 404, 'not_found');
    expectError(await call('GET', '/api/sessions/ses_nope/live', { auth: { cookie: owner.cookie } }), 404, 'not_found');

    assert.equal(await page.evaluate(() => document.title), 'watched', 'watching does not disturb the session');
  } finally {
    await pw.close();
  }

  // Once the session has ended there is nothing to watch: 409 with the reason.
  const ended = await eventually(
    async () => {
      const res = await call('GET', `/api/sessions/${await newestSessionId(owner.workspaceId)}/live`, { auth: { cookie: owner.cookie } });
      // Between the client's close and the session's end row, the proxy has already stopped the capture.
      return res.status === 409 && /has ended/.test(res.body?.error?.message) ? res : null;
    },
    10_000,
    'the live route to refuse the ended session',
  );
  expectError(ended, 409, 'conflict');
  assert.match(ended.body.error.message, /has ended/);
});

test('a session that is not recorded cannot be watched: 409 saying why', SLOW, async () => {
  const owner = await recordingUser('live-plain');
  const plain = await expectOpened(connectUrl(owner.key));
  try {
    // The session's row is written just after the 101 (off the connect path): wait for it.
    await eventually(() => db.sessionLog.findUnique({ where: { id: plain.sessionId } }), 10_000, 'the session row');
    const res = await call('GET', `/api/sessions/${plain.sessionId}/live`, { auth: { cookie: owner.cookie } });
    expectError(res, 409, 'conflict');
    assert.match(res.body.error.message, /not recorded/);
  } finally {
    plain.ws.close();
  }
});
