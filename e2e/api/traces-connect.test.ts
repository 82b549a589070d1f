// Traced sessions through the connect endpoint, over real sockets (docs/traces.md): a standalone
// Chromium as the provider, a local site with fetches, a failing request, a cut connection,
// console output, an exception and navigations, Playwright, puppeteer and raw CDP clients. The
// stored trace checked event by event; credentials redacted; the plugin invisible to the client;
// the event cap and the wallet stopping capture while the session goes on; billing per event;
// 409 while the session runs; orphans of a crashed proxy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { call } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { cdp, connectUrl, eventually, expectOpened } from '../support/connect';
import { inFreshBrowser, playwrightScript, puppeteerScript } from '../support/invisibility';
import { startTestSite, type TestSite } from '../support/test-site';
import { newestSessionId, ownProxy, userWithProvider } from '../support/capture';
import type { ProxyServer } from '../../proxy/server';
import { sessionCharge, traceCharge } from '../../lib/billing/charges';
import { blobs } from '../../lib/blobs';
import { settings } from '../../lib/config/settings';
import { db } from '../../lib/db';
import {
  pageKey,
  parsePage,
  traceCompleteKey,
  traceFolder,
  type ConsoleEvent,
  type ExceptionEvent,
  type FailedEvent,
  type NavigationEvent,
  type NoteEvent,
  type RequestEvent,
  type ResponseEvent,
  type TraceEvent,
  type TraceSummary,
} from '../../lib/traces/format';
import { settleOrphanedTraces } from '../../lib/traces/settle-orphans';
import { seedSession, seedTrace } from '../support/seed-sessions';

const SLOW = { timeout: 120_000 };
const blobFile = (key: string) => path.join(process.env.DATA_DIR ?? '.data', 'blobs', ...key.split('/'));

let browser: Chromium;
let site: TestSite;
/** A proxy of this file's own with a small event cap (the stack's is 2,000,000). */
let capped: ProxyServer;
let cappedUrl: string;
const CAP_EVENTS = 40;

before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
  ({ proxy: capped, url: cappedUrl } = await ownProxy('trace-cap', { traces: { maxEvents: CAP_EVENTS } }));
});
after(async () => {
  await capped?.stop();
  await Promise.all([browser?.stop(), site?.close()]);
});

const withProvider = (tag: string, balanceMillicents?: bigint) => userWithProvider(tag, browser.wsUrl, balanceMillicents);

const sessionOf = (workspaceId: string) => newestSessionId(workspaceId);

async function completed(sessionId: string) {
  return eventually(
    async () => {
      const t = await db.trace.findUnique({ where: { sessionLogId: sessionId } });
      return t?.complete ? t : null;
    },
    15_000,
    'the trace to complete',
  );
}

async function ended(sessionId: string) {
  return eventually(
    async () => {
      const s = await db.sessionLog.findUniqueOrThrow({ where: { id: sessionId } });
      return s.state !== 'active' ? s : null;
    },
    10_000,
    'the session end',
  );
}

/** Every event on storage, page after page, and the raw bytes of the page files. */
async function eventsOf(traceId: string): Promise<{ events: TraceEvent[]; raw: string }> {
  let raw = '';
  for (let page = 0; ; page++) {
    const text = await readFile(blobFile(pageKey(traceId, page)), 'utf8').catch(() => null);
    if (text === null) break;
    raw += text;
  }
  return { events: parsePage(raw), raw };
}

/** Runs the /traced page in a Playwright session through `url`; returns the page's tab (target id) and the session. */
async function tracedPage(url: string, workspaceId: string, then?: (page: import('playwright-core').Page) => Promise<void>) {
  const pw = await chromium.connectOverCDP(url);
  const context = pw.contexts()[0]!;
  const page = await context.newPage();
  await page.goto(`${site.url}/traced`);
  await page.waitForFunction(() => document.title === 'traced-done');
  // A CDP session of the test's own, detached at once: the page's close is then the detach
  // Playwright waits for, so the trace has the tab's `closed` before pw.close() ends the session.
  const probe = await context.newCDPSession(page);
  const tab = ((await probe.send('Target.getTargetInfo')) as { targetInfo: { targetId: string } }).targetInfo.targetId;
  await probe.detach();
  await then?.(page);
  const sessionId = await sessionOf(workspaceId);
  await pw.close();
  return { tab, sessionId };
}

test(
  'a Playwright session on a page with fetches, a failure, console output and an exception: every event is in the trace, tied to its tab',
  SLOW,
  async () => {
    const user = await withProvider('trace-basic');
    const { tab, sessionId } = await tracedPage(connectUrl(user.key, { observability: 'true' }), user.workspaceId, async (page) => {
      await page.goto(`${site.url}/traced-next`);
      await page.close();
    });
    const trace = await completed(sessionId);
    const { events, raw } = await eventsOf(trace.id);
    assert.equal(trace.eventCount, events.length);
    assert.equal(Number(trace.sizeBytes), Buffer.byteLength(raw));
    assert.equal(trace.truncated, null);
    assert.equal(trace.droppedEvents, 0);
    assert.ok(
      events.every((e, i) => e.seq === i),
      'events numbered in order',
    );
    assert.ok(
      events.every((e, i) => i === 0 || e.t >= events[i - 1]!.t),
      'times never go back',
    );

    const ofTab = events.filter((e) => e.tab === tab);
    assert.ok(
      ofTab.some((e) => e.kind === 'tab' && e.action === 'opened'),
      'the tab opened',
    );
    assert.ok(
      ofTab.some((e) => e.kind === 'tab' && e.action === 'closed'),
      'and closed',
    );
    const requests = ofTab.filter((e): e is RequestEvent => e.kind === 'request');
    const responses = ofTab.filter((e): e is ResponseEvent => e.kind === 'response');
    const byPath = (p: string) => {
      const request = requests.find((r) => new URL(r.url).pathname + new URL(r.url).search === p);
      assert.ok(request, `a request to ${p}: ${requests.map((r) => r.url).join(', ')}`);
      const rest = ofTab.filter((e) => 'requestId' in e && e.requestId === request.requestId);
      return {
        request,
        response: rest.find((e): e is ResponseEvent => e.kind === 'response'),
        finished: rest.find((e) => e.kind === 'finished'),
        failed: rest.find((e): e is FailedEvent => e.kind === 'failed'),
      };
    };
    // The document, the fetches, the failure and the cut connection, each with its outcome.
    const doc = byPath('/traced');
    assert.equal(doc.request.type, 'Document');
    assert.equal(doc.response?.status, 200);
    assert.ok(doc.finished);
    const ok = byPath('/api/ok?n=1');
    assert.equal(ok.request.type, 'Fetch');
    assert.equal(ok.request.method, 'GET');
    assert.equal(ok.request.headers['X-Trace-Test'], 'visible');
    assert.equal(ok.request.headers['Authorization'], '[redacted]');
    assert.equal(ok.response?.status, 200);
    assert.equal(ok.response?.mimeType, 'application/json');
    assert.ok(ok.response!.encodedDataLength > 0 && ok.response!.timing, 'size and timing');
    assert.ok(ok.finished && (ok.finished as { encodedDataLength: number }).encodedDataLength > 0);
    assert.ok(ok.request.wallTime > 1e9 && ok.request.timestamp > 0);
    const fail = byPath('/api/fail');
    assert.equal(fail.response?.status, 500);
    assert.equal(fail.response?.statusText, 'Internal Server Error');
    const reset = byPath('/api/reset');
    assert.equal(reset.response, undefined);
    assert.match(reset.failed?.errorText ?? '', /net::ERR_EMPTY_RESPONSE/);
    assert.ok(responses.length >= 4);

    // Console at its levels, with where it came from; the exception; the navigations.
    const consoles = ofTab.filter((e): e is ConsoleEvent => e.kind === 'console' && e.source !== 'network');
    const line = (text: string) => consoles.find((c) => c.text === text);
    assert.equal(line('hello trace 42')?.level, 'log');
    assert.equal(line('an info line')?.level, 'info');
    assert.equal(line('a warning line')?.level, 'warning');
    const boom = line('boom happened');
    assert.equal(boom?.level, 'error');
    assert.match(boom?.url ?? '', /\/traced$/);
    assert.ok((boom?.line ?? 0) > 0);
    const exception = ofTab.find((e): e is ExceptionEvent => e.kind === 'exception');
    assert.match(exception?.text ?? '', /Uncaught Error: uncaught trace error/);
    assert.match(exception?.stack ?? '', /at /);
    const navigations = ofTab.filter((e): e is NavigationEvent => e.kind === 'navigation' && e.main);
    assert.deepEqual(
      navigations.map((n) => [new URL(n.url).pathname + new URL(n.url).hash, n.sameDocument]),
      [
        ['/traced', false],
        ['/traced#step-2', true],
        ['/traced-next', false],
      ],
    );
    assert.equal(ofTab.filter((e) => e.kind === 'note').length, 0, 'Playwright enables everything: nothing to note');

    // complete.json, the row and the bill agree.
    const summary = JSON.parse(await readFile(blobFile(traceCompleteKey(trace.id)), 'utf8')) as TraceSummary;
    assert.equal(summary.eventCount, trace.eventCount);
    assert.equal(summary.sizeBytes, Number(trace.sizeBytes));
    assert.equal(summary.pages, 1);
    const session = await ended(sessionId);
    assert.equal(session.billedMillicents, sessionCharge(session.monthOrdinal) + traceCharge(trace.eventCount));
    const entry = await db.walletEntry.findFirstOrThrow({ where: { workspaceId: user.workspaceId, kind: 'observability' } });
    assert.equal(entry.amountMillicents, -traceCharge(trace.eventCount));
    const detail = await call('GET', `/v1/sessions/${sessionId}`, { auth: { token: user.token } });
    assert.equal(detail.body.data.hasReplay, true, 'the session has a trace');
  },
);

test('credentials never reach storage: header values redacted, request bodies left out', SLOW, async () => {
  const user = await withProvider('trace-redact');
  const { sessionId } = await tracedPage(connectUrl(user.key, { observability: 'true' }), user.workspaceId, async (page) => {
    // A form post (pages cannot set Cookie or Proxy-Authorization themselves: the browser forbids
    // those names; their redaction is unit-tested in lib/traces/redact.test.ts).
    await page.evaluate(() => fetch('/api/ok?n=3', { method: 'POST', body: 'password=trace-secret-password' }));
    // Credentials under other header names, in the query and in an OAuth-style fragment.
    await page.evaluate(() =>
      fetch('/api/ok?n=4&token=trace-secret-query&q=kept', { headers: { 'X-Api-Key': 'trace-secret-apikey', 'X-Amz-Security-Token': 'trace-secret-amz' } }),
    );
    await page.evaluate(() => {
      location.hash = 'access_token=trace-secret-fragment&token_type=bearer';
    });
    await page.waitForFunction(() => location.hash.includes('token_type'));
  });
  const trace = await completed(sessionId);
  const { events, raw } = await eventsOf(trace.id);
  for (const secret of [
    'trace-secret-token',
    'trace-secret-cookie',
    'trace-secret-password',
    'trace-secret-query',
    'trace-secret-apikey',
    'trace-secret-amz',
    'trace-secret-fragment',
  ]) {
    assert.equal(raw.includes(secret), false, `${secret} is not stored`);
  }
  const queried = events.find((e): e is RequestEvent => e.kind === 'request' && e.url.includes('n=4'));
  assert.ok(queried?.url.endsWith('/api/ok?n=4&token=[redacted]&q=kept'), queried?.url);
  assert.deepEqual([queried!.headers['X-Api-Key'], queried!.headers['X-Amz-Security-Token']], ['[redacted]', '[redacted]']);
  assert.ok(
    events.some((e) => e.kind === 'navigation' && e.url.endsWith('#access_token=[redacted]&token_type=bearer')),
    'the fragment navigation, its token redacted',
  );
  // Chromium keeps cookies out of these events' headers (they travel in the ExtraInfo events, which
  // the trace does not keep); wherever a credential header appears, its value is redacted.
  const credentials = ['authorization', 'cookie', 'set-cookie', 'proxy-authorization'];
  for (const event of events) {
    const sets =
      event.kind === 'request' ? [event.headers, event.redirectResponse?.headers] : event.kind === 'response' ? [event.headers, event.requestHeaders] : [];
    for (const headers of sets)
      for (const [name, value] of Object.entries(headers ?? {}))
        if (credentials.includes(name.toLowerCase())) assert.equal(value, '[redacted]', `${name} of ${event.kind} ${event.seq}`);
  }
  const posted = events.find((e): e is RequestEvent => e.kind === 'request' && e.url.endsWith('/api/ok?n=3'));
  assert.equal(posted?.method, 'POST');
  assert.equal(posted?.postDataBytes, 'password=trace-secret-password'.length, "the body's size, not the body");
});

test('Playwright sees the same outcome and events with and without tracing', SLOW, async () => {
  const plain = await inFreshBrowser('trace-invisible-pw', {}, playwrightScript(site));
  const traced = await inFreshBrowser('trace-invisible-pw', { observability: 'true' }, playwrightScript(site));
  assert.deepEqual(traced.result, plain.result);
  const trace = await completed(await sessionOf(traced.user.workspaceId));
  assert.ok(trace.eventCount > 20, `${trace.eventCount} events`);
});

test('puppeteer sees the same outcome and events with and without tracing, recorded or not', SLOW, async () => {
  const plain = await inFreshBrowser('trace-invisible-pptr', {}, puppeteerScript(site));
  const traced = await inFreshBrowser('trace-invisible-pptr', { observability: 'true' }, puppeteerScript(site));
  const both = await inFreshBrowser('trace-invisible-pptr', { observability: 'true', session_record: 'true' }, puppeteerScript(site));
  assert.deepEqual(traced.result, plain.result);
  assert.deepEqual(both.result, plain.result);
  // With the recorder on the same lane, its own sessions' events stay out of the trace.
  const alone = await eventsOf((await completed(await sessionOf(traced.user.workspaceId))).id);
  const recorded = await eventsOf((await completed(await sessionOf(both.user.workspaceId))).id);
  // (Whether a tab's close reaches the client before Browser.close cuts the connection is a race of
  // the browser's: closes are left out.)
  const shape = (events: TraceEvent[]) =>
    events
      .filter((e) => e.kind === 'navigation' || (e.kind === 'tab' && e.action === 'opened') || e.kind === 'console')
      .map((e) => `${e.kind} ${'url' in e ? new URL(e.url ?? 'about:blank').pathname : ''} ${'text' in e ? e.text : ''}`);
  assert.deepEqual(shape(recorded.events), shape(alone.events));
});

test('a raw CDP client that never enables a domain gets a note saying what could not be seen, and nothing it did not ask for', SLOW, async () => {
  const user = await withProvider('trace-raw');
  const opened = await expectOpened(connectUrl(user.key, { observability: 'true' }));
  const seen: { id?: number; method?: string }[] = [];
  opened.ws.on('message', (data) => seen.push(JSON.parse(String(data))));
  const { targetId } = await cdp(opened.ws, 'Target.createTarget', { url: 'about:blank' }, 1);
  const { sessionId: page } = await cdp(opened.ws, 'Target.attachToTarget', { targetId, flatten: true }, 2);
  // Only Page is enabled: navigations are traced, requests and console are not.
  opened.ws.send(JSON.stringify({ id: 3, method: 'Page.enable', sessionId: page }));
  await eventually(() => seen.find((m) => m.id === 3), 5_000, 'Page.enable');
  opened.ws.send(JSON.stringify({ id: 4, method: 'Page.navigate', params: { url: `${site.url}/traced` }, sessionId: page }));
  await eventually(() => seen.find((m) => m.method === 'Page.loadEventFired'), 5_000, 'the load');
  const sessionId = await sessionOf(user.workspaceId);
  opened.ws.close();
  await opened.closed;
  assert.deepEqual(
    seen.filter((m) => m.id !== undefined).map((m) => m.id),
    [1, 2, 3, 4],
    'replies to its own commands only',
  );

  const { events } = await eventsOf((await completed(sessionId)).id);
  const note = events.find((e): e is NoteEvent => e.kind === 'note');
  assert.deepEqual(note?.missing, ['network', 'console']);
  assert.equal(note?.tab, targetId);
  assert.match(note?.message ?? '', /Network\.enable.*Runtime\.enable/);
  assert.ok(
    events.some((e) => e.kind === 'navigation' && e.url.endsWith('/traced')),
    'the navigation it could see',
  );
  assert.equal(events.filter((e) => e.kind === 'request' || e.kind === 'console').length, 0);
});

test(
  'the event cap stops capture (truncated event-cap, the rest counted as dropped) while the session goes on; only stored events are billed',
  SLOW,
  async () => {
    const user = await withProvider('trace-cap');
    const pw = await chromium.connectOverCDP(`${cappedUrl}/v1/connect?token=${encodeURIComponent(user.key)}&observability=true`);
    const page = await pw.contexts()[0]!.newPage();
    await page.goto(`${site.url}/many?n=30&v=${randomUUID()}`);
    await page.waitForLoadState('load');
    // The session is alive and well past the cap.
    assert.equal(await page.evaluate(() => document.images.length), 30);
    const sessionId = await sessionOf(user.workspaceId);
    await pw.close();
    const trace = await completed(sessionId);
    assert.equal(trace.eventCount, CAP_EVENTS);
    assert.equal(trace.truncated, 'event-cap');
    assert.ok(trace.droppedEvents > 30, `${trace.droppedEvents} dropped`);
    assert.equal((await eventsOf(trace.id)).events.length, CAP_EVENTS);
    const session = await ended(sessionId);
    assert.equal(session.billedMillicents, sessionCharge(session.monthOrdinal) + traceCharge(CAP_EVENTS));
  },
);

test('the wallet stops capture before its cost would use up the balance (truncated wallet-drained)', SLOW, async () => {
  // 101 millicents pays for 20 events (100 millicents), never the 21st.
  const user = await withProvider('trace-wallet', 101n);
  const pw = await chromium.connectOverCDP(connectUrl(user.key, { observability: 'true' }));
  const page = await pw.contexts()[0]!.newPage();
  await page.goto(`${site.url}/many?n=30&v=${randomUUID()}`);
  assert.equal(await page.evaluate(() => document.images.length), 30);
  const sessionId = await sessionOf(user.workspaceId);
  await pw.close();
  const trace = await completed(sessionId);
  assert.equal(trace.eventCount, 20);
  assert.equal(trace.truncated, 'wallet-drained');
  assert.equal((await ended(sessionId)).billedMillicents, 100n);
  assert.equal((await db.wallet.findUniqueOrThrow({ where: { workspaceId: user.workspaceId } })).balanceMillicents, 1n, 'never below zero');
});

test('while the session runs the trace is listed and its events answer 409 trace_in_progress with Retry-After: 10', SLOW, async () => {
  const user = await withProvider('trace-running');
  const pw = await chromium.connectOverCDP(connectUrl(user.key, { observability: 'true' }));
  const page = await pw.contexts()[0]!.newPage();
  await page.goto(`${site.url}/traced`);
  const sessionId = await sessionOf(user.workspaceId);
  const trace = await eventually(() => db.trace.findUnique({ where: { sessionLogId: sessionId } }), 5_000, 'the trace row');
  const auth = { token: user.token };
  // The list shows it growing: the row gets its figures every TRACE_PROGRESS_MS while it runs (5 s
  // in production, short in the test stack).
  const listed = await eventually(
    async () => {
      const res = await call('GET', '/v1/inspections', { auth });
      return res.body.data?.inspections?.[0]?.eventCount > 0 ? res : null;
    },
    settings().traceProgressMs + 5_000,
    "the running trace's figures",
  );
  assert.deepEqual(
    listed.body.data.inspections.map((t: { id: string; complete: boolean }) => [t.id, t.complete]),
    [[trace.id, false]],
  );
  const running = await call('GET', `/v1/inspections/${trace.id}/events`, { auth });
  assert.equal(running.status, 409);
  assert.equal(running.body.error.code, 'trace_in_progress');
  assert.equal(running.headers.get('retry-after'), '10');
  await pw.close();
  await completed(sessionId);
  const done = await call('GET', `/v1/inspections/${trace.id}/events?page=0`, { auth });
  assert.equal(done.status, 200);
  assert.ok(done.body.data.events.length > 0);
});

test(
  "a crashed proxy's traces: its successor counts what reached storage (a torn last line is not counted); the trace stays orphaned, readable",
  SLOW,
  async () => {
    const user = await withProvider('trace-orphan');
    const proxyInstanceId = `trace-orphan-${randomUUID()}`;
    const session = await seedSession(user.workspaceId, user.routerId, {
      providerSlug: 'chromium',
      providerName: 'chromium',
      state: 'errored',
      startedAt: new Date(Date.now() - 120_000),
      durationMs: 60_000,
      proxyInstanceId,
    });
    const traceId = (await seedTrace(session)).id;
    const line = (seq: number) => `${JSON.stringify({ seq, t: Date.now(), tab: null, kind: 'console', level: 'log', source: 'log', text: `line ${seq}` })}\n`;
    const full = Array.from({ length: 1_000 }, (_, i) => line(i)).join('');
    await blobs().put(pageKey(traceId, 0), full);
    await blobs().put(pageKey(traceId, 1), `${line(1_000)}${line(1_001)}{"seq":1002,"t":`);
    assert.equal(await settleOrphanedTraces(proxyInstanceId, blobs()), 1);
    const row = await db.trace.findUniqueOrThrow({ where: { id: traceId } });
    assert.equal(row.eventCount, 1_002);
    assert.equal(Number(row.sizeBytes), Buffer.byteLength(full) + Buffer.byteLength(line(1_000) + line(1_001)));
    assert.equal(row.complete, false);
    assert.ok(row.endedAt);
    assert.equal(await settleOrphanedTraces(proxyInstanceId, blobs()), 0, 'settled once');
    const detail = await call('GET', `/v1/inspections/${traceId}`, { auth: { token: user.token } });
    assert.equal(detail.body.data.orphaned, true);
    await blobs().deleteFolder(traceFolder(traceId));
    assert.deepEqual(await readdir(blobFile(traceFolder(traceId))).catch(() => []), []);
  },
);
