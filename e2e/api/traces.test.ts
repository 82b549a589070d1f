// Traces (docs/api.md, Traces): the list and its filters, one trace and `orphaned`, the events
// whole (streamed), by page and as downloads (JSON, gzip, HAR), 409 while the session runs, delete,
// roles, routers, other workspaces and credentials, and the 60-day retention sweep run by a job
// worker. Traces are made as the capture leaves them: a session row, a trace row, and page files in
// the storage layout of lib/traces/format.ts under the stack's DATA_DIR.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { blobs } from '../../lib/blobs';
import { db } from '../../lib/db';
import { PAGE_SIZE, pageKey, traceCompleteKey, type CapturedEvent, type Timing, type TraceEvent, type TraceSummary } from '../../lib/traces/format';
import { call, expectError, expectOk, newUser, WEB, type TestUser } from '../support/api';
import { eventually } from '../support/connect';
import { seedMember, seedRouter, seedSession, seedTrace } from '../support/seed';
import { programRunner } from '../../scripts/lib/processes';

const DAY_MS = 86_400_000;
const traceFields = [
  'complete',
  'droppedEvents',
  'durationMs',
  'endedAt',
  'eventCount',
  'id',
  'pages',
  'providerId',
  'routerInstanceId',
  'sessionLogId',
  'sizeBytes',
  'startedAt',
  'truncated',
];

// har-validator checks a document against the HAR 1.2 JSON schema (har-schema); it has no types.
const harValidator = createRequire(import.meta.url)('har-validator') as { har(data: unknown): Promise<unknown> };

interface CallOptions {
  workspaceId?: string;
  routerId?: string;
}
const as = (user: TestUser, options: CallOptions = {}) => ({
  auth: { token: user.token },
  headers: { ...(options.workspaceId ? { 'x-workspace-id': options.workspaceId } : {}), ...(options.routerId ? { 'x-router-id': options.routerId } : {}) },
});

/** A GET answered as bytes: status, headers and the body as a Buffer (call() parses text). */
async function getBytes(url: string, user: TestUser, headers: Record<string, string> = {}) {
  const response = await fetch(`${WEB}${url}`, { headers: { authorization: `Bearer ${user.token}`, ...headers } });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

// ------------------------------------------------------------------------------------------ events

const WALL_S = Math.floor(Date.now() / 1000) - 600;
const TIMING = (mono: number): Timing => ({
  requestTime: mono + 0.001,
  proxyStart: -1,
  proxyEnd: -1,
  dnsStart: 0.2,
  dnsEnd: 3.2,
  connectStart: 3.2,
  connectEnd: 20.4,
  sslStart: 8.1,
  sslEnd: 20.4,
  sendStart: 20.6,
  sendEnd: 20.9,
  receiveHeadersEnd: 48.7,
});

/**
 * Events as a browsing session produces them, `count` of them: blocks on two tabs alternately, each a
 * document loaded by a navigation, a stylesheet, an API call redirected once, an image that fails,
 * console output, an uncaught exception and a same-document navigation. The last block may be cut
 * off mid-request, like a trace that stops at its limit.
 */
function browsingEvents(count: number): TraceEvent[] {
  const captured: CapturedEvent[] = [
    { kind: 'tab', action: 'opened', tab: 'TAB-A', url: 'about:blank', t: WALL_S * 1000 },
    { kind: 'tab', action: 'opened', tab: 'TAB-B', url: 'about:blank', openerId: 'TAB-A', t: WALL_S * 1000 + 1 },
  ];
  let clock = 0;
  const tick = () => (clock += 0.004);
  for (let block = 0; captured.length < count; block++) {
    const tab = block % 2 === 0 ? 'TAB-A' : 'TAB-B';
    const origin = `https://shop${block % 3}.example.test`;
    const id = (n: number) => `${block}.${n}`;
    const base = () => {
      const s = tick();
      return { tab, t: Math.round((WALL_S + s) * 1000), timestamp: 1_000 + s, wallTime: WALL_S + s };
    };
    const req = (n: number, url: string, type: string, extra: object = {}) => {
      const b = base();
      return {
        kind: 'request' as const,
        tab,
        t: b.t,
        requestId: id(n),
        url,
        method: 'GET',
        type,
        headers: { accept: '*/*', 'user-agent': 'Chrome' },
        wallTime: b.wallTime,
        timestamp: b.timestamp,
        initiator: 'parser',
        ...extra,
      };
    };
    const res = (n: number, url: string, status: number, mimeType: string, type: string) => {
      const b = base();
      return {
        kind: 'response' as const,
        tab,
        t: b.t,
        requestId: id(n),
        url,
        status,
        statusText: status === 200 ? 'OK' : 'Created',
        mimeType,
        headers: { 'content-type': mimeType, 'set-cookie': '[redacted]' },
        requestHeaders: { accept: '*/*', cookie: '[redacted]', host: new URL(url).host },
        protocol: 'h2',
        remoteAddress: '203.0.113.10:443',
        fromCache: false,
        fromServiceWorker: false,
        timing: TIMING(b.timestamp - 0.05),
        encodedDataLength: 410,
        type,
        timestamp: b.timestamp,
      };
    };
    const fin = (n: number, bytes: number) => ({
      kind: 'finished' as const,
      tab,
      t: base().t,
      requestId: id(n),
      encodedDataLength: bytes,
      timestamp: 1_000 + clock,
    });
    const page = `${origin}/p/${block}`;
    const api = `${origin}/api/cart?b=${block}`;
    captured.push(
      req(1, page, 'Document', { frameId: tab }),
      res(1, page, 200, 'text/html', 'Document'),
      { kind: 'navigation', tab, t: base().t, frameId: tab, main: true, url: page, sameDocument: false },
      fin(1, 5_120),
      req(2, `${origin}/site.css?b=${block}`, 'Stylesheet'),
      res(2, `${origin}/site.css?b=${block}`, 200, 'text/css', 'Stylesheet'),
      fin(2, 2_048),
      req(3, `http://${new URL(origin).host}/api/cart?b=${block}`, 'XHR', { method: 'POST', postDataBytes: 64 }),
      req(3, api, 'XHR', {
        method: 'POST',
        postDataBytes: 64,
        redirectResponse: { status: 307, statusText: 'Temporary Redirect', headers: { location: api } },
      }),
      res(3, api, 201, 'application/json', 'XHR'),
      fin(3, 700),
      req(4, `https://ads.example.test/pixel.gif?b=${block}`, 'Image'),
      {
        kind: 'failed',
        tab,
        t: base().t,
        requestId: id(4),
        errorText: 'net::ERR_BLOCKED_BY_CLIENT',
        canceled: false,
        blockedReason: 'inspector',
        type: 'Image',
        timestamp: 1_000 + clock,
      },
      {
        kind: 'console',
        tab,
        t: base().t,
        level: 'log',
        source: 'log',
        text: `cart ready (block ${block}) ${'·'.repeat(block % 40)}`,
        url: page,
        line: 12,
        column: 4,
      },
      {
        kind: 'console',
        tab,
        t: base().t,
        level: 'warning',
        source: 'network',
        text: 'Failed to load resource: net::ERR_BLOCKED_BY_CLIENT',
        url: `https://ads.example.test/pixel.gif?b=${block}`,
      },
      {
        kind: 'exception',
        tab,
        t: base().t,
        text: 'Uncaught TypeError: x is undefined',
        stack: `TypeError: x is undefined\n    at ${origin}/app.js:1:99`,
        url: `${origin}/app.js`,
        line: 1,
        column: 99,
      },
      { kind: 'navigation', tab, t: base().t, frameId: tab, main: true, url: `${page}#reviews`, sameDocument: true },
    );
  }
  return captured.slice(0, count).map((event, seq) => ({ seq, ...event }) as TraceEvent);
}

const lineOf = (event: TraceEvent) => `${JSON.stringify(event)}\n`;

/** Page files as the capture writes them (PAGE_SIZE lines each); `torn` adds half a line to the last, as a crash leaves it. */
async function writePages(traceId: string, events: TraceEvent[], options: { torn?: boolean } = {}) {
  for (let page = 0; page * PAGE_SIZE < events.length; page++) {
    let text = events
      .slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE)
      .map(lineOf)
      .join('');
    if (options.torn && (page + 1) * PAGE_SIZE >= events.length) text += '{"seq":99999,"t":17,"tab":"TAB-A","kind":"cons';
    await blobs().put(pageKey(traceId, page), text);
  }
}

// ----------------------------------------------------------------------------------------- fixtures

interface FixtureOptions {
  /** `ended` (default): five minutes ago; `just-ended`: a second ago (the capture may still be finishing); `active`: still running. */
  session?: 'active' | 'ended' | 'just-ended';
  /** Default: true once the session ended. */
  complete?: boolean;
  startedAt?: Date;
  routerId?: string;
  /** The events written to storage (none by default). */
  events?: TraceEvent[];
  /** Half a line at the end of the last page (an orphan of a crashed proxy). */
  torn?: boolean;
  truncated?: 'event-cap' | 'wallet-drained';
}

interface Fixture {
  id: string;
  sessionId: string;
  startedAt: Date;
}

async function traceFixture(user: TestUser, options: FixtureOptions = {}): Promise<Fixture> {
  const state = options.session ?? 'ended';
  const complete = options.complete ?? state !== 'active';
  const startedAt = options.startedAt ?? new Date(Date.now() - 10 * 60_000);
  const endedAt = state === 'active' ? null : state === 'just-ended' ? new Date(Date.now() - 1_000) : new Date(startedAt.getTime() + 4_000);
  const routerId = options.routerId ?? user.routerId;
  const events = options.events ?? [];
  const sizeBytes = events.reduce((n, e) => n + Buffer.byteLength(lineOf(e)), 0);
  const session = await seedSession(user.workspaceId, routerId, {
    providerSlug: 'fixture',
    providerName: 'Fixture',
    state: state === 'active' ? 'active' : 'closed',
    startedAt,
    endedAt,
    durationMs: endedAt ? endedAt.getTime() - startedAt.getTime() : 0,
  });
  const { id } = await seedTrace(session, {
    ...(complete
      ? { endedAt, durationMs: 4_000, eventCount: events.length, sizeBytes: BigInt(sizeBytes), droppedEvents: 3, truncated: options.truncated ?? null }
      : {}),
    complete,
  });
  await writePages(id, events, { torn: options.torn });
  if (complete) {
    const summary: TraceSummary = {
      traceId: id,
      sessionId: session.id,
      startedAt: startedAt.toISOString(),
      endedAt: endedAt!.toISOString(),
      durationMs: 4_000,
      eventCount: events.length,
      pages: Math.ceil(events.length / PAGE_SIZE),
      sizeBytes,
      droppedEvents: 3,
      truncated: options.truncated ?? null,
    };
    await blobs().put(traceCompleteKey(id), JSON.stringify(summary));
  }
  return { id, sessionId: session.id, startedAt };
}

const secondRouter = async (user: TestUser) => (await seedRouter(user.workspaceId, { slug: `second-${randomBytes(3).toString('hex')}`, name: 'Second' })).id;

// -------------------------------------------------------------------------------------------- tests

test('the list: the Trace resource, newest first, the last 24 hours by default, since, session_id, limit', async () => {
  const user = await newUser('trc-list');
  const events = browsingEvents(40);
  const older = await traceFixture(user, { startedAt: new Date(Date.now() - 3 * 3_600_000), events, truncated: 'event-cap' });
  const newer = await traceFixture(user, { startedAt: new Date(Date.now() - 60_000) });
  const live = await traceFixture(user, { session: 'active', startedAt: new Date(Date.now() - 30_000) });
  const twoDays = await traceFixture(user, { startedAt: new Date(Date.now() - 2 * DAY_MS) });
  const tenDays = await traceFixture(user, { startedAt: new Date(Date.now() - 10 * DAY_MS) });

  const list = expectOk(await call('GET', '/v1/inspections', as(user)));
  assert.deepEqual(Object.keys(list).sort(), ['count', 'inspections']);
  assert.deepEqual(
    list.inspections.map((t: any) => t.id),
    [live.id, newer.id, older.id],
    'newest first, the last 24 hours',
  );
  assert.equal(list.count, 3);

  const done = list.inspections[2];
  assert.deepEqual(Object.keys(done).sort(), traceFields);
  const sizeBytes = events.reduce((n, e) => n + Buffer.byteLength(lineOf(e)), 0);
  assert.deepEqual(done, {
    id: older.id,
    sessionLogId: older.sessionId,
    routerInstanceId: user.routerId,
    providerId: null,
    startedAt: older.startedAt.toISOString(),
    endedAt: new Date(older.startedAt.getTime() + 4_000).toISOString(),
    durationMs: 4_000,
    eventCount: 40,
    sizeBytes,
    droppedEvents: 3,
    complete: true,
    truncated: 'event-cap',
    pages: 1,
  });
  const running = list.inspections[0];
  assert.deepEqual([running.complete, running.endedAt, running.eventCount, running.pages, running.truncated], [false, null, 0, 0, null]);

  const since = expectOk(await call('GET', `/v1/inspections?since=${Date.now() - 3 * DAY_MS}`, as(user)));
  assert.deepEqual(
    since.inspections.map((t: any) => t.id),
    [live.id, newer.id, older.id, twoDays.id],
  );
  const sinceAll = expectOk(await call('GET', '/v1/inspections?since=0', as(user)));
  assert.deepEqual(
    sinceAll.inspections.map((t: any) => t.id),
    [live.id, newer.id, older.id, twoDays.id, tenDays.id],
  );

  // One session's trace, whenever it started (no default `since`); with a `since` after it, nothing.
  const bySession = expectOk(await call('GET', `/v1/inspections?session_id=${tenDays.sessionId}`, as(user)));
  assert.deepEqual([bySession.count, bySession.inspections.map((t: any) => t.id)], [1, [tenDays.id]]);
  const afterIt = expectOk(await call('GET', `/v1/inspections?session_id=${tenDays.sessionId}&since=${Date.now() - DAY_MS}`, as(user)));
  assert.deepEqual(afterIt, { count: 0, inspections: [] });
  assert.deepEqual(expectOk(await call('GET', '/v1/inspections?session_id=nope', as(user))), { count: 0, inspections: [] });

  const limited = expectOk(await call('GET', '/v1/inspections?limit=2', as(user)));
  assert.deepEqual([limited.count, limited.inspections.map((t: any) => t.id)], [2, [live.id, newer.id]]);
  assert.equal(expectOk(await call('GET', '/v1/inspections?limit=200&since=0', as(user))).count, 5);
  for (const bad of ['0', '201', '-1', '1.5', 'ten']) {
    const res = await call('GET', `/v1/inspections?limit=${bad}`, as(user));
    expectError(res, 400, 'validation_error');
    assert.equal(res.body.error.details[0].path, 'limit', bad);
  }
  for (const bad of ['yesterday', '-5', '1.5', '1e300']) {
    const res = await call('GET', `/v1/inspections?since=${bad}`, as(user));
    expectError(res, 400, 'validation_error');
    assert.equal(res.body.error.details[0].path, 'since', bad);
  }

  // Counted against the daily bearer cap, like the rest of the inspections group.
  const counted = await call('GET', '/v1/inspections', as(user));
  assert.ok(counted.headers.get('x-ratelimit-limit'));
  assert.ok(counted.headers.get('x-ratelimit-remaining'));
});

test('the list: 50 by default, at most 200', async () => {
  const user = await newUser('trc-limit');
  for (let i = 0; i < 52; i++) await traceFixture(user, { startedAt: new Date(Date.now() - (i + 1) * 60_000) });
  const list = expectOk(await call('GET', '/v1/inspections', as(user)));
  assert.equal(list.count, 50);
  assert.equal(list.inspections.length, 50);
  const times = list.inspections.map((t: any) => Date.parse(t.startedAt));
  assert.deepEqual(
    times,
    [...times].sort((a, b) => b - a),
    'newest first',
  );
  assert.equal(expectOk(await call('GET', '/v1/inspections?limit=200', as(user))).count, 52);
});

test("only the request's router: another router's traces are listed and found with X-Router-Id or routerInstanceId only", async () => {
  const user = await newUser('trc-router');
  const router2 = await secondRouter(user);
  const mine = await traceFixture(user, { events: browsingEvents(5) });
  const theirs = await traceFixture(user, { routerId: router2, events: browsingEvents(5) });

  assert.deepEqual(
    expectOk(await call('GET', '/v1/inspections', as(user))).inspections.map((t: any) => t.id),
    [mine.id],
    'the first router by default',
  );
  assert.deepEqual(
    expectOk(await call('GET', '/v1/inspections', as(user, { routerId: router2 }))).inspections.map((t: any) => t.id),
    [theirs.id],
  );
  assert.deepEqual(
    expectOk(await call('GET', `/v1/inspections?routerInstanceId=${router2}`, as(user))).inspections.map((t: any) => t.id),
    [theirs.id],
  );
  assert.deepEqual(expectOk(await call('GET', `/v1/inspections?session_id=${theirs.sessionId}`, as(user))), { count: 0, inspections: [] });

  for (const url of [
    `/v1/inspections/${theirs.id}`,
    `/v1/inspections/${theirs.id}/events`,
    `/v1/inspections/${theirs.id}/events?page=0`,
    `/v1/inspections/${theirs.id}/events?download=json`,
  ]) {
    expectError(await call('GET', url, as(user)), 404, 'not_found');
  }
  expectError(await call('DELETE', `/v1/inspections/${theirs.id}`, as(user)), 404, 'not_found');
  assert.equal(expectOk(await call('GET', `/v1/inspections/${theirs.id}`, as(user, { routerId: router2 }))).routerInstanceId, router2);
  assert.equal(expectOk(await call('GET', `/v1/inspections/${theirs.id}/events`, as(user, { routerId: router2 }))).length, 5);
  assert.equal(expectOk(await call('GET', `/v1/inspections/${theirs.id}/events?page=0&routerInstanceId=${router2}`, as(user))).events.length, 5);
  expectError(await call('GET', `/v1/inspections/${mine.id}`, as(user, { routerId: router2 })), 404, 'not_found');
  expectError(await call('GET', '/v1/inspections', as(user, { routerId: 'no-such-router' })), 404, 'not_found');
});

test('one trace: `orphaned` is true only when it is unfinished and its session ended over 30 s ago', async () => {
  const user = await newUser('trc-one');
  const complete = await traceFixture(user, { events: browsingEvents(3) });
  const live = await traceFixture(user, { session: 'active' });
  const finishing = await traceFixture(user, { session: 'just-ended', complete: false });
  const orphan = await traceFixture(user, { complete: false });

  const one = expectOk(await call('GET', `/v1/inspections/${complete.id}`, as(user)));
  assert.deepEqual(Object.keys(one).sort(), [...traceFields, 'orphaned'].sort());
  const listed = expectOk(await call('GET', `/v1/inspections?session_id=${complete.sessionId}`, as(user))).inspections[0];
  assert.deepEqual(one, { ...listed, orphaned: false });
  assert.equal(expectOk(await call('GET', `/v1/inspections/${live.id}`, as(user))).orphaned, false);
  assert.equal(expectOk(await call('GET', `/v1/inspections/${finishing.id}`, as(user))).orphaned, false, 'the capture may still be finishing');
  const orphaned = expectOk(await call('GET', `/v1/inspections/${orphan.id}`, as(user)));
  assert.deepEqual([orphaned.orphaned, orphaned.complete], [true, false]);
  expectError(await call('GET', '/v1/inspections/does-not-exist', as(user)), 404, 'not_found');
});

test('events: all of them streamed in the envelope, by page, and 400 for a bad page', async () => {
  const user = await newUser('trc-events');
  const events = browsingEvents(2_345);
  const { id } = await traceFixture(user, { events });
  const url = `/v1/inspections/${id}/events`;

  const whole = await call('GET', url, as(user));
  assert.deepEqual(expectOk(whole), events, 'every event of every page, in order');
  assert.equal(whole.headers.get('content-type'), 'application/json');
  assert.equal(whole.headers.get('content-length'), null, 'streamed, not buffered');
  assert.ok(whole.headers.get('x-ratelimit-limit'), 'counted like the rest of the group');
  assert.ok(whole.headers.get('x-request-id'));

  for (const [page, from, to] of [
    [0, 0, 1_000],
    [1, 1_000, 2_000],
    [2, 2_000, 2_345],
  ] as const) {
    const data = expectOk(await call('GET', `${url}?page=${page}`, as(user)));
    assert.deepEqual(Object.keys(data).sort(), ['eventCount', 'events', 'page', 'pages']);
    assert.deepEqual([data.page, data.pages, data.eventCount], [page, 3, 2_345]);
    assert.deepEqual(data.events, events.slice(from, to), `page ${page}`);
  }
  for (const page of [3, 999_999_999]) {
    assert.deepEqual(
      expectOk(await call('GET', `${url}?page=${page}`, as(user))),
      { events: [], page, pages: 3, eventCount: 2_345 },
      'past the last page: empty',
    );
  }
  for (const bad of ['-1', 'x', '1.5', '', '1e2', '0x1', '1234567890']) {
    const res = await call('GET', `${url}?page=${bad}`, as(user));
    expectError(res, 400, 'validation_error');
    assert.equal(res.body.error.details[0].path, 'page', bad);
  }
  for (const bad of ['xml', 'JSON', '']) {
    const res = await call('GET', `${url}?download=${bad}`, as(user));
    expectError(res, 400, 'validation_error');
    assert.equal(res.body.error.details[0].path, 'download', bad);
  }
  const both = await call('GET', `${url}?page=0&download=json`, as(user));
  expectError(both, 400, 'validation_error');
  assert.equal(both.body.error.details[0].path, 'download');

  // A trace without any event.
  const empty = await traceFixture(user);
  assert.deepEqual(expectOk(await call('GET', `/v1/inspections/${empty.id}/events`, as(user))), []);
  assert.deepEqual(expectOk(await call('GET', `/v1/inspections/${empty.id}/events?page=0`, as(user))), { events: [], page: 0, pages: 0, eventCount: 0 });
});

test('downloads: the bare array as JSON, the same bytes gzipped, and a HAR of the requests', async () => {
  const user = await newUser('trc-dl');
  const events = browsingEvents(2_345);
  const { id } = await traceFixture(user, { events });
  const url = `/v1/inspections/${id}/events`;

  const json = await getBytes(`${url}?download=json`, user);
  assert.equal(json.status, 200);
  assert.equal(json.headers.get('content-type'), 'application/json');
  assert.equal(json.headers.get('content-disposition'), `attachment; filename="trace-${id}.json"`);
  assert.ok(json.headers.get('x-ratelimit-limit'));
  assert.equal(json.body.toString('utf8'), JSON.stringify(events), 'the array of the stored lines, byte for byte');

  const gz = await getBytes(`${url}?download=gz`, user);
  assert.equal(gz.status, 200);
  assert.equal(gz.headers.get('content-type'), 'application/gzip');
  assert.equal(gz.headers.get('content-disposition'), `attachment; filename="trace-${id}.json.gz"`);
  assert.deepEqual([gz.body[0], gz.body[1]], [0x1f, 0x8b], 'a gzip stream');
  assert.ok(gunzipSync(gz.body).equals(json.body), 'gunzips to exactly the JSON download');
  assert.ok(gz.body.length < json.body.length / 4, `compressed (${gz.body.length} of ${json.body.length} bytes)`);

  const harFile = await getBytes(`${url}?download=har`, user);
  assert.equal(harFile.status, 200);
  assert.equal(harFile.headers.get('content-type'), 'application/json');
  assert.equal(harFile.headers.get('content-disposition'), `attachment; filename="trace-${id}.har"`);
  const har = JSON.parse(harFile.body.toString('utf8'));
  await harValidator.har(har).catch((error: { errors?: unknown }) => assert.fail(`not a valid HAR: ${JSON.stringify(error.errors ?? error)}`));
  assert.equal(har.log.version, '1.2');

  // Every request hop is an entry (the cut-off last block's too, as unfinished); one page per document.
  const requests = events.filter((e) => e.kind === 'request');
  assert.equal(har.log.entries.length, requests.length);
  const documents = events.filter((e) => e.kind === 'navigation' && e.main && !e.sameDocument);
  assert.deepEqual(
    har.log.pages.map((p: any) => p.title),
    documents.map((e) => (e as { url: string }).url),
  );
  assert.equal(new Set(har.log.pages.map((p: any) => p.id)).size, har.log.pages.length);

  const byUrl = (u: string) => har.log.entries.filter((e: any) => e.request.url === u);
  const [doc] = byUrl('https://shop0.example.test/p/0');
  assert.deepEqual(
    [doc.response.status, doc.pageref, doc._resourceType, doc.serverIPAddress, doc.response.bodySize],
    [200, har.log.pages[0].id, 'document', '203.0.113.10', 5_120],
  );
  assert.equal(doc.startedDateTime, new Date((WALL_S + 0.004) * 1000).toISOString(), "from the request's wall time");
  assert.ok(doc.timings.dns > 0 && doc.timings.connect > 0 && doc.timings.ssl > 0 && doc.timings.wait > 0, JSON.stringify(doc.timings));
  const [css] = byUrl('https://shop0.example.test/site.css?b=0');
  assert.deepEqual([css.response.status, css.pageref, css.request.queryString], [200, har.log.pages[0].id, [{ name: 'b', value: '0' }]]);
  const [hop] = byUrl('http://shop0.example.test/api/cart?b=0');
  const [api] = byUrl('https://shop0.example.test/api/cart?b=0');
  assert.deepEqual(
    [hop.response.status, hop.response.redirectURL, hop.request.method, hop.request.bodySize],
    [307, 'https://shop0.example.test/api/cart?b=0', 'POST', 64],
  );
  assert.deepEqual([api.response.status, api.response.redirectURL, api.pageref], [201, '', hop.pageref]);
  const [pixel] = byUrl('https://ads.example.test/pixel.gif?b=0');
  assert.deepEqual([pixel.response.status, pixel.response._error], [0, 'net::ERR_BLOCKED_BY_CLIENT']);
  // The second block is on the other tab: its own page.
  const [doc2] = byUrl('https://shop1.example.test/p/1');
  assert.equal(doc2.pageref, har.log.pages[1].id);
  assert.equal(
    har.log.entries.filter((e: any) => e._unfinished).length,
    requests.length -
      events.filter((e) => e.kind === 'finished' || e.kind === 'failed').length -
      events.filter((e) => e.kind === 'request' && e.redirectResponse).length,
  );
});

test('a trace being written: 409 trace_in_progress with Retry-After while its session runs or has just ended', async () => {
  const user = await newUser('trc-409');
  const live = await traceFixture(user, { session: 'active', events: browsingEvents(1_200) });
  const finishing = await traceFixture(user, { session: 'just-ended', complete: false, events: browsingEvents(10) });
  for (const { id } of [live, finishing]) {
    for (const query of ['', '?page=0', '?download=json', '?download=gz', '?download=har']) {
      const res = await call('GET', `/v1/inspections/${id}/events${query}`, as(user));
      expectError(res, 409, 'trace_in_progress');
      assert.equal(res.headers.get('retry-after'), '10', query);
    }
    assert.equal(expectOk(await call('GET', `/v1/inspections/${id}`, as(user))).complete, false, 'the trace itself is shown');
  }

  // The session ends and the capture finishes the trace: readable.
  const ended = new Date();
  await db.sessionLog.update({ where: { id: live.sessionId }, data: { state: 'closed', endedAt: ended } });
  expectError(await call('GET', `/v1/inspections/${live.id}/events?page=0`, as(user)), 409, 'trace_in_progress');
  await db.trace.update({ where: { id: live.id }, data: { complete: true, endedAt: ended, eventCount: 1_200 } });
  const page = expectOk(await call('GET', `/v1/inspections/${live.id}/events?page=1`, as(user)));
  assert.deepEqual([page.pages, page.eventCount, page.events.length], [2, 1_200, 200]);
});

test('an orphan (its proxy died): readable as far as it was written, the torn last line left out', async () => {
  const user = await newUser('trc-orphan');
  const events = browsingEvents(1_500);
  const { id } = await traceFixture(user, { complete: false, events, torn: true });
  assert.equal(expectOk(await call('GET', `/v1/inspections/${id}`, as(user))).orphaned, true);

  assert.deepEqual(expectOk(await call('GET', `/v1/inspections/${id}/events`, as(user))), events);
  const last = expectOk(await call('GET', `/v1/inspections/${id}/events?page=1`, as(user)));
  assert.deepEqual(last, { events: events.slice(1_000), page: 1, pages: 2, eventCount: 1_500 }, 'counted from what is stored: the row was never finished');
  assert.deepEqual(expectOk(await call('GET', `/v1/inspections/${id}/events?page=2`, as(user))), { events: [], page: 2, pages: 2, eventCount: 1_500 });
  const json = await getBytes(`/v1/inspections/${id}/events?download=json`, user);
  assert.equal(json.body.toString('utf8'), JSON.stringify(events));
  const har = JSON.parse((await getBytes(`/v1/inspections/${id}/events?download=har`, user)).body.toString('utf8'));
  await harValidator.har(har);

  // Pages that never came (a crash before the first page was flushed): nothing, not an error.
  const bare = await traceFixture(user, { complete: false });
  assert.deepEqual(expectOk(await call('GET', `/v1/inspections/${bare.id}/events`, as(user))), []);
  assert.deepEqual(expectOk(await call('GET', `/v1/inspections/${bare.id}/events?page=0`, as(user))), { events: [], page: 0, pages: 0, eventCount: 0 });

  // Long orphans: the extent is found with a few size checks, whatever the number of pages.
  const long = browsingEvents(9 * PAGE_SIZE + 17);
  const many = await traceFixture(user, { complete: false, events: long });
  assert.deepEqual(expectOk(await call('GET', `/v1/inspections/${many.id}/events?page=9`, as(user))), {
    events: long.slice(9 * PAGE_SIZE),
    page: 9,
    pages: 10,
    eventCount: long.length,
  });
});

test('delete: owner or admin; the row and its files go, the session stays; a member is forbidden', async () => {
  const owner = await newUser('trc-del');
  const admin = await newUser('trc-del-a');
  const member = await newUser('trc-del-m');
  await seedMember(owner.workspaceId, admin.userId, 'admin');
  await seedMember(owner.workspaceId, member.userId, 'member');
  const first = await traceFixture(owner, { events: browsingEvents(1_100) });
  const second = await traceFixture(owner, { events: browsingEvents(10) });

  expectError(await call('DELETE', `/v1/inspections/${first.id}`, as(member, { workspaceId: owner.workspaceId })), 403, 'forbidden');
  assert.ok(await blobs().size(pageKey(first.id, 1)));
  assert.ok(await db.trace.findUnique({ where: { id: first.id } }));

  assert.deepEqual(expectOk(await call('DELETE', `/v1/inspections/${first.id}`, as(owner))), { id: first.id });
  assert.equal(await db.trace.findUnique({ where: { id: first.id } }), null);
  for (const key of [pageKey(first.id, 0), pageKey(first.id, 1), traceCompleteKey(first.id)]) assert.equal(await blobs().size(key), null, `${key} is gone`);
  assert.ok(await db.sessionLog.findUnique({ where: { id: first.sessionId } }), 'the session stays');
  expectError(await call('GET', `/v1/inspections/${first.id}`, as(owner)), 404, 'not_found');
  expectError(await call('GET', `/v1/inspections/${first.id}/events`, as(owner)), 404, 'not_found');
  expectError(await call('DELETE', `/v1/inspections/${first.id}`, as(owner)), 404, 'not_found');
  assert.deepEqual(expectOk(await call('GET', `/v1/inspections?session_id=${first.sessionId}`, as(owner))), { count: 0, inspections: [] });

  assert.deepEqual(expectOk(await call('DELETE', `/v1/inspections/${second.id}`, as(admin, { workspaceId: owner.workspaceId }))), { id: second.id });
  assert.equal(await blobs().size(pageKey(second.id, 0)), null);
});

test("another workspace's trace is not_found on every endpoint; a member reads; no token is 401", async () => {
  const owner = await newUser('trc-iso');
  const stranger = await newUser('trc-iso-x');
  const member = await newUser('trc-iso-m');
  await seedMember(owner.workspaceId, member.userId, 'member');
  const { id, sessionId } = await traceFixture(owner, { events: browsingEvents(30) });
  await traceFixture(stranger); // the stranger's own list is not empty either

  const reads = ['', '/events', '/events?page=0', '/events?download=json', '/events?download=gz', '/events?download=har'].map(
    (tail) => `/v1/inspections/${id}${tail}`,
  );
  for (const url of reads) expectError(await call('GET', url, as(stranger)), 404, 'not_found');
  expectError(await call('DELETE', `/v1/inspections/${id}`, as(stranger)), 404, 'not_found');
  assert.deepEqual(expectOk(await call('GET', `/v1/inspections?session_id=${sessionId}`, as(stranger))), { count: 0, inspections: [] });
  assert.ok(expectOk(await call('GET', '/v1/inspections?since=0', as(stranger))).inspections.every((t: any) => t.id !== id));
  // Naming the owner's workspace or router does not help someone outside it.
  expectError(await call('GET', `/v1/inspections/${id}`, as(stranger, { workspaceId: owner.workspaceId })), 403, 'not_a_member');
  expectError(await call('GET', `/v1/inspections/${id}`, as(stranger, { routerId: owner.routerId })), 404, 'not_found');

  // A member of the workspace reads everything (only delete needs owner or admin).
  for (const url of reads) {
    const res = await getBytes(url, member, { 'x-workspace-id': owner.workspaceId });
    assert.equal(res.status, 200, url);
  }

  for (const [method, url] of [...reads.map((u) => ['GET', u]), ['DELETE', `/v1/inspections/${id}`], ['GET', '/v1/inspections']] as [string, string][]) {
    expectError(await call(method, url), 401, 'unauthenticated');
    expectError(await call(method, url, { auth: { token: 'acct_not-a-real-token' } }), 401, 'unauthenticated');
  }
  assert.ok(await db.trace.findUnique({ where: { id } }), 'nothing was deleted');
});

// ---------------------------------------------------------------------------------------- retention

// The worker runs on a queue schema of its own, so the stack's proxy never takes its jobs.
const JOBS_SCHEMA = `jobs_traces_${process.pid}`;
const workers: ChildProcess[] = [];
after(async () => {
  for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
  await db.$executeRawUnsafe(`DROP SCHEMA IF EXISTS ${JOBS_SCHEMA} CASCADE`);
});

test(
  "retention: the job worker's hourly sweep deletes traces that started over 60 days ago, with their files; younger ones stay",
  { timeout: 60_000 },
  async () => {
    const user = await newUser('trc-sweep');
    const old = await traceFixture(user, { startedAt: new Date(Date.now() - 61 * DAY_MS), events: browsingEvents(1_001) });
    const young = await traceFixture(user, { startedAt: new Date(Date.now() - 59 * DAY_MS), events: browsingEvents(3) });
    const orphanOld = await traceFixture(user, { startedAt: new Date(Date.now() - 70 * DAY_MS), complete: false, events: browsingEvents(3) });

    const child = spawn(process.execPath, [programRunner, 'e2e/support/job-worker.ts', '--retention'], {
      env: { ...process.env, JOBS_SCHEMA, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    workers.push(child);
    let output = '';
    child.stdout!.on('data', (data: Buffer) => (output += data));
    child.stderr!.on('data', (data: Buffer) => (output += data));
    await eventually(() => output.includes('ready') || child.exitCode !== null, 30_000, 'the worker to start');
    assert.equal(child.exitCode, null, `the worker started: ${output}`);

    const row = (id: string) => db.trace.findUnique({ where: { id } });
    await eventually(async () => (await row(old.id)) === null && (await row(orphanOld.id)) === null, 30_000, `the old traces to be swept (${output})`);
    for (const key of [pageKey(old.id, 0), pageKey(old.id, 1), traceCompleteKey(old.id), pageKey(orphanOld.id, 0)])
      assert.equal(await blobs().size(key), null, `${key} is gone`);
    assert.ok(await row(young.id), 'the 59-day-old trace stays');
    assert.notEqual(await blobs().size(pageKey(young.id, 0)), null);
    assert.ok(await db.sessionLog.findUnique({ where: { id: old.sessionId } }), 'the session itself is history and stays');

    child.kill('SIGTERM');
    await new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
    assert.equal(child.exitCode, 0, output);
  },
);
