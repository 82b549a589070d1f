import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CapturedEvent, TraceEvent } from '../traces/format';
import {
  buildRequests,
  clockOffset,
  filterRequests,
  isFailedRequest,
  monotonicToAxis,
  splitUrl,
  timingPhases,
  traceFigures,
  typeCategory,
} from './trace-model';
import { consoleEntries, countGroups, filterConsole, sourceLocation } from './trace-console';
import { axisFraction, axisTicks, formatAt, formatMs, playerPositionAt, tabTimelines, traceAxis, traceNotes } from './trace-timeline';

/** Events as a page file holds them: numbered in order. */
const trace = (...events: CapturedEvent[]): TraceEvent[] => events.map((e, seq) => ({ ...e, seq }) as TraceEvent);

// The browser's clocks: monotonic 1000 s is wall 1,700,000,000 s; the proxy sees each event 5 ms later.
const WALL = 1_700_000_000;
const MONO = 1_000;
const T0 = WALL * 1000;
const at = (monoSeconds: number) => T0 + (monoSeconds - MONO) * 1000 + 5;

const request = (requestId: string, url: string, mono: number, extra: Partial<Extract<CapturedEvent, { kind: 'request' }>> = {}): CapturedEvent => ({
  kind: 'request',
  t: at(mono),
  tab: 'TAB1',
  requestId,
  url,
  method: 'GET',
  type: 'Fetch',
  headers: {},
  wallTime: WALL + (mono - MONO),
  timestamp: mono,
  ...extra,
});
const response = (
  requestId: string,
  url: string,
  mono: number,
  status: number,
  extra: Partial<Extract<CapturedEvent, { kind: 'response' }>> = {},
): CapturedEvent => ({
  kind: 'response',
  t: at(mono),
  tab: 'TAB1',
  requestId,
  url,
  status,
  statusText: status === 200 ? 'OK' : 'Error',
  mimeType: 'application/json',
  headers: { 'content-type': 'application/json' },
  fromCache: false,
  fromServiceWorker: false,
  encodedDataLength: 120,
  type: 'Fetch',
  timestamp: mono,
  ...extra,
});
const finished = (requestId: string, mono: number, bytes = 300): CapturedEvent => ({
  kind: 'finished',
  t: at(mono),
  tab: 'TAB1',
  requestId,
  encodedDataLength: bytes,
  timestamp: mono,
});
const failed = (requestId: string, mono: number, errorText = 'net::ERR_EMPTY_RESPONSE'): CapturedEvent => ({
  kind: 'failed',
  t: at(mono),
  tab: 'TAB1',
  requestId,
  errorText,
  canceled: false,
  type: 'Fetch',
  timestamp: mono,
});

test('requests are joined by requestId: request, response, finished or failed', () => {
  const events = trace(
    request('1', 'http://site.test/api/ok?n=1', 1000.1, { headers: { Authorization: '[redacted]', 'X-Trace-Test': 'visible' } }),
    request('2', 'http://site.test/api/fail', 1000.2),
    response('1', 'http://site.test/api/ok?n=1', 1000.15, 200, {
      requestHeaders: { Authorization: '[redacted]', Host: 'site.test' },
      protocol: 'http/1.1',
      remoteAddress: '127.0.0.1:80',
    }),
    finished('1', 1000.3),
    response('2', 'http://site.test/api/fail', 1000.25, 500),
    finished('2', 1000.26, 90),
    request('3', 'http://site.test/api/reset', 1000.4),
    failed('3', 1000.45),
    request('4', 'http://site.test/slow', 1000.5),
  );
  const rows = buildRequests(events);
  assert.deepEqual(
    rows.map((r) => r.key),
    ['1', '2', '3', '4'],
  );
  const [ok, fail, reset, pending] = rows as [(typeof rows)[number], (typeof rows)[number], (typeof rows)[number], (typeof rows)[number]];

  assert.equal(ok.status, 200);
  assert.equal(ok.transferBytes, 300);
  assert.equal(ok.protocol, 'http/1.1');
  // The network stack's headers win, the page's own ones it did not repeat stay.
  assert.deepEqual(ok.requestHeaders, { Authorization: '[redacted]', Host: 'site.test', 'X-Trace-Test': 'visible' });
  assert.deepEqual(ok.responseHeaders, { 'content-type': 'application/json' });
  assert.equal(isFailedRequest(ok), false);

  assert.equal(fail.status, 500);
  assert.equal(fail.transferBytes, 90);
  assert.equal(isFailedRequest(fail), true);

  assert.equal(reset.status, null);
  assert.deepEqual(reset.error, { text: 'net::ERR_EMPTY_RESPONSE', canceled: false });
  assert.equal(isFailedRequest(reset), true);

  assert.equal(pending.end, null);
  assert.equal(pending.status, null);
  assert.equal(isFailedRequest(pending), false);
});

test("a request's start is its wall time and its end its monotonic end through the request's clock pair, both on the proxy's clock", () => {
  const events = trace(request('1', 'http://a.test/', 1000), finished('1', 1000.75));
  assert.equal(clockOffset(events), 5);
  const [row] = buildRequests(events);
  assert.equal(row!.start, T0 + 5);
  assert.equal(row!.end, T0 + 750 + 5);
  assert.equal(monotonicToAxis({ wallTime: WALL, timestamp: MONO }, MONO + 2, 0), T0 + 2000);
  assert.equal(monotonicToAxis({ wallTime: 0, timestamp: MONO }, MONO + 2, 0), null);
});

test("a browser clock ahead of the proxy's is brought back onto the proxy's axis", () => {
  // The browser's wall clock is 30 s ahead: its requests would otherwise sit 30 s after the console lines.
  const ahead = (e: CapturedEvent): CapturedEvent => (e.kind === 'request' ? { ...e, wallTime: e.wallTime + 30 } : e);
  const events = trace(ahead(request('1', 'http://a.test/', 1000)), ahead(request('2', 'http://a.test/b', 1001)), finished('2', 1001.5));
  assert.equal(clockOffset(events), 5 - 30_000);
  const rows = buildRequests(events);
  assert.equal(rows[0]!.start, T0 + 5);
  assert.equal(rows[1]!.start, T0 + 1000 + 5);
  assert.equal(rows[1]!.end, T0 + 1500 + 5);
  // No request at all: nothing to correct.
  assert.equal(clockOffset(trace(finished('9', 1000))), 0);
});

test('a redirect repeats the requestId: each hop is a row, the earlier one ends with the redirect response', () => {
  const events = trace(
    request('7', 'http://a.test/redirect/1', 1000, { type: 'Document' }),
    request('7', 'http://a.test/basic', 1000.1, { type: 'Document', redirectResponse: { status: 302, statusText: 'Found', headers: { location: '/basic' } } }),
    response('7', 'http://a.test/basic', 1000.2, 200, { type: 'Document', mimeType: 'text/html' }),
    finished('7', 1000.3),
  );
  const [hop, final] = buildRequests(events);
  assert.equal(hop!.key, '7');
  assert.equal(hop!.status, 302);
  assert.equal(hop!.redirectedTo, 'http://a.test/basic');
  assert.deepEqual(hop!.responseHeaders, { location: '/basic' });
  assert.equal(hop!.end, T0 + 100 + 5);
  assert.equal(final!.key, '7#1');
  assert.equal(final!.url, 'http://a.test/basic');
  assert.equal(final!.status, 200);
  assert.equal(final!.end, T0 + 300 + 5);
});

test('a response or end without its request (dropped events) still makes a row, placed at the proxy time', () => {
  const events = trace(response('x', 'http://a.test/orphan', 1000.2, 204), finished('x', 1000.3));
  const [row] = buildRequests(events);
  assert.equal(row!.url, 'http://a.test/orphan');
  assert.equal(row!.status, 204);
  assert.equal(row!.start, at(1000.2));
  assert.equal(row!.end, at(1000.3));
});

test('filters: resource type, failed only, URL search; all together', () => {
  const events = trace(
    request('d', 'http://a.test/', 1000, { type: 'Document' }),
    request('s', 'http://a.test/app.js', 1000.1, { type: 'Script' }),
    request('i', 'http://a.test/logo.png', 1000.1, { type: 'Image' }),
    request('c', 'http://a.test/site.css', 1000.1, { type: 'Stylesheet' }),
    request('x', 'http://a.test/api/xhr', 1000.2, { type: 'XHR' }),
    request('f', 'http://a.test/api/fail', 1000.3),
    response('f', 'http://a.test/api/fail', 1000.4, 500),
    request('r', 'http://a.test/api/reset', 1000.5),
    failed('r', 1000.6),
    request('o', 'http://a.test/font.woff2', 1000.5, { type: 'Font' }),
  );
  const rows = buildRequests(events);
  const keys = (filter: Partial<Parameters<typeof filterRequests>[1]>) =>
    filterRequests(rows, { type: 'all', failedOnly: false, search: '', ...filter })
      .map((r) => r.key)
      .sort();
  assert.equal(keys({}).length, 8);
  assert.deepEqual(keys({ type: 'document' }), ['d']);
  assert.deepEqual(keys({ type: 'fetch' }), ['f', 'r', 'x']);
  assert.deepEqual(keys({ type: 'script' }), ['s']);
  assert.deepEqual(keys({ type: 'stylesheet' }), ['c']);
  assert.deepEqual(keys({ type: 'image' }), ['i']);
  assert.deepEqual(keys({ type: 'other' }), ['o']);
  assert.deepEqual(keys({ failedOnly: true }), ['f', 'r']);
  assert.deepEqual(keys({ search: '  API/ ' }), ['f', 'r', 'x']);
  assert.deepEqual(keys({ search: 'fail', failedOnly: true, type: 'fetch' }), ['f']);
  assert.equal(typeCategory('EventSource'), 'fetch');
  assert.equal(typeCategory('Media'), 'other');
});

test('URLs split into the path to read and the origin beside it', () => {
  assert.deepEqual(splitUrl('http://127.0.0.1:4100/api/ok?n=1#x'), { origin: 'http://127.0.0.1:4100', path: '/api/ok?n=1#x' });
  assert.deepEqual(splitUrl('data:image/png;base64,AAAA'), { origin: 'data:', path: 'image/png;base64,AAAA' });
  assert.deepEqual(splitUrl('not a url'), { origin: '', path: 'not a url' });
});

test('timing phases come from ResourceTiming, skipping steps that did not happen', () => {
  const events = trace(
    request('1', 'https://a.test/', 1000),
    response('1', 'https://a.test/', 1000.2, 200, {
      timing: {
        requestTime: 1000.01,
        dnsStart: 1,
        dnsEnd: 11,
        connectStart: 11,
        connectEnd: 41,
        sslStart: 20,
        sslEnd: 41,
        sendStart: 41,
        sendEnd: 42,
        receiveHeadersEnd: 142,
        proxyStart: -1,
        proxyEnd: -1,
      },
    }),
    finished('1', 1000.2),
  );
  const phases = timingPhases(buildRequests(events)[0]!);
  const round = phases.map((p) => [p.name, Math.round(p.ms)]);
  assert.deepEqual(round, [
    ['Queueing', 11],
    ['DNS lookup', 10],
    ['Initial connection', 30],
    ['SSL', 21],
    ['Request sent', 1],
    ['Waiting (TTFB)', 100],
    ['Content download', 48],
  ]);
  // A reused connection: no DNS or connect, queueing up to the send.
  const reused = timingPhases({
    timestamp: 1000,
    endTimestamp: null,
    timing: { requestTime: 1000, dnsStart: -1, dnsEnd: -1, connectStart: -1, connectEnd: -1, sendStart: 2, sendEnd: 3, receiveHeadersEnd: 10 },
  });
  assert.deepEqual(
    reused.map((p) => p.name),
    ['Queueing', 'Request sent', 'Waiting (TTFB)'],
  );
  assert.deepEqual(timingPhases({ timestamp: 1000, endTimestamp: null }), []);
});

test('console lines and exceptions: levels grouped, filtered by level and text, with their source', () => {
  const events = trace(
    { kind: 'console', t: 10, tab: 'TAB1', level: 'log', source: 'log', text: 'hello trace 42', url: 'http://a.test/traced', line: 3, column: 13 },
    { kind: 'console', t: 11, tab: 'TAB1', level: 'info', source: 'info', text: 'an info line' },
    { kind: 'console', t: 12, tab: 'TAB1', level: 'warning', source: 'warning', text: 'a warning line' },
    { kind: 'console', t: 13, tab: 'TAB1', level: 'error', source: 'error', text: 'boom happened' },
    { kind: 'console', t: 14, tab: 'TAB1', level: 'debug', source: 'debug', text: 'quiet' },
    {
      kind: 'exception',
      t: 15,
      tab: 'TAB1',
      text: 'Uncaught Error: uncaught trace error',
      stack: 'Error: uncaught trace error\n    at http://a.test/traced:9:40',
      url: 'http://a.test/traced',
      line: 9,
      column: 40,
    },
    { kind: 'console', t: 16, tab: 'TAB1', level: 'error', source: 'network', text: 'Failed to load resource: the server responded with a status of 500' },
  );
  const entries = consoleEntries(events);
  assert.equal(entries.length, 7);
  assert.deepEqual(countGroups(entries), { error: 3, warning: 1, info: 1, log: 2 });
  const texts = (groups: string[], search = '') => filterConsole(entries, { groups: new Set(groups as never[]), search }).map((e) => e.text);
  assert.deepEqual(texts(['error']), [
    'boom happened',
    'Uncaught Error: uncaught trace error',
    'Failed to load resource: the server responded with a status of 500',
  ]);
  assert.deepEqual(texts(['error', 'warning', 'info', 'log'], 'BOOM'), ['boom happened']);
  assert.deepEqual(texts(['error'], 'at http://a.test'), ['Uncaught Error: uncaught trace error']);
  assert.deepEqual(texts(['warning', 'info']), ['an info line', 'a warning line']);
  assert.equal(sourceLocation(entries[0]!), 'traced:3:13');
  assert.equal(sourceLocation(entries[1]!), null);
  assert.equal(entries[5]!.kind, 'exception');
});

test('tabs: opened and closed, main-frame navigations in order (same-document ones marked), iframes left out', () => {
  const events = trace(
    { kind: 'tab', t: 100, tab: 'A', action: 'opened', url: 'about:blank' },
    { kind: 'navigation', t: 110, tab: 'A', frameId: 'A', main: true, url: 'http://a.test/traced', sameDocument: false },
    { kind: 'navigation', t: 115, tab: 'A', frameId: 'F', main: false, url: 'http://ads.test/frame', sameDocument: false },
    { kind: 'navigation', t: 120, tab: 'A', frameId: 'A', main: true, url: 'http://a.test/traced#step-2', sameDocument: true },
    { kind: 'tab', t: 130, tab: 'B', action: 'opened', url: 'http://a.test/popup', openerId: 'A' },
    { kind: 'note', t: 140, tab: 'B', code: 'not-enabled', missing: ['console'], message: 'The client never enabled console output' },
    { kind: 'tab', t: 150, tab: 'A', action: 'closed' },
  );
  const [a, b] = tabTimelines(events);
  assert.equal(a!.tab, 'A');
  assert.equal(a!.openedAt, 100);
  assert.equal(a!.closedAt, 150);
  assert.equal(a!.url, 'http://a.test/traced');
  assert.deepEqual(
    a!.navigations.map((n) => [n.t, n.sameDocument]),
    [
      [110, false],
      [120, true],
    ],
  );
  assert.equal(b!.openerId, 'A');
  assert.equal(b!.url, 'http://a.test/popup');
  assert.equal(b!.closedAt, null);
  assert.deepEqual(
    traceNotes(events).map((n) => n.missing),
    [['console']],
  );
});

test('the axis spans the trace and everything in it; positions, offsets and player positions', () => {
  const axis = traceAxis(
    { startedAt: 1_000, endedAt: 5_000 },
    [{ t: 1_500 }, { t: 5_200 }],
    [
      { start: 900, end: 2_000 },
      { start: 3_000, end: null },
    ],
  );
  assert.deepEqual(axis, { start: 900, end: 5_200 });
  assert.equal(axisFraction(axis, 900), 0);
  assert.equal(axisFraction(axis, 5_200), 1);
  assert.equal(axisFraction(axis, 10_000), 1);
  assert.equal(axisFraction(axis, 3_050), 0.5);
  assert.equal(formatAt(axis, 2_134), '+1.234 s');
  // An empty trace still has an axis one millisecond wide.
  assert.deepEqual(traceAxis({ startedAt: 1_000, endedAt: null }, [], []), { start: 1_000, end: 1_001 });
  assert.deepEqual(axisTicks(axis), [0, 1_000, 2_000, 3_000, 4_000]);
  assert.deepEqual(axisTicks({ start: 0, end: 130 }, 6), [0, 50, 100]);
  assert.deepEqual(axisTicks({ start: 0, end: 1 }, 4), [0, 0.5, 1]);
  assert.equal(playerPositionAt(1_500, 1_000), 500);
  assert.equal(playerPositionAt(900, 1_000), 0);
  assert.equal(formatMs(0.5), '0.50 ms');
  assert.equal(formatMs(850.4), '850 ms');
  assert.equal(formatMs(1_250), '1.25 s');
  assert.equal(formatMs(12_340), '12.3 s');
  assert.equal(formatMs(125_000), '2 min 5 s');
});

test("a trace's figures: requests, failed ones, console errors, exceptions, navigations", () => {
  const events = trace(
    request('1', 'http://a.test/api/ok', 1000),
    response('1', 'http://a.test/api/ok', 1000.1, 200),
    finished('1', 1000.2),
    request('2', 'http://a.test/api/fail', 1000.3),
    response('2', 'http://a.test/api/fail', 1000.4, 500),
    finished('2', 1000.5),
    request('3', 'http://a.test/api/reset', 1000.6),
    failed('3', 1000.7),
    { kind: 'console', t: 1, tab: 'A', level: 'error', source: 'error', text: 'boom happened' },
    { kind: 'console', t: 2, tab: 'A', level: 'warning', source: 'warning', text: 'careful' },
    { kind: 'exception', t: 3, tab: 'A', text: 'Uncaught Error: x' },
    { kind: 'navigation', t: 4, tab: 'A', frameId: 'A', main: true, url: 'http://a.test/', sameDocument: false },
  );
  assert.deepEqual(traceFigures(events), { requests: 3, failedRequests: 2, consoleErrors: 1, exceptions: 1, navigations: 1 });
});
