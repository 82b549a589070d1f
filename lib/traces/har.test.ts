import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import type { FailedEvent, FinishedEvent, NavigationEvent, RequestEvent, ResponseEvent, TraceEvent } from './format';
import { buildHar, HarBuilder, harClosing, harOpening, harTimings } from './har';
import { type HarEntry } from './har-format';

// har-validator checks a document against the HAR 1.2 JSON schema (har-schema); it has no types.
const validator = createRequire(import.meta.url)('har-validator') as { har(data: unknown): Promise<unknown> };
async function assertValidHar(har: unknown) {
  await validator.har(har).catch((error: { errors?: unknown }) => assert.fail(`not a valid HAR: ${JSON.stringify(error.errors ?? error)}`));
}

// Wall time (Unix s) and the browser's monotonic clock (s) of a request's start.
const WALL = 1_790_000_000;
const MONO = 5_000;
let seq = 0;

function request(requestId: string, url: string, options: Partial<RequestEvent> = {}): RequestEvent {
  return {
    seq: seq++,
    t: WALL * 1000,
    tab: 'TAB-A',
    kind: 'request',
    requestId,
    url,
    method: 'GET',
    type: 'Script',
    headers: { accept: '*/*' },
    wallTime: WALL,
    timestamp: MONO,
    ...options,
  };
}

function response(requestId: string, options: Partial<ResponseEvent> = {}): ResponseEvent {
  return {
    seq: seq++,
    t: WALL * 1000 + 100,
    tab: 'TAB-A',
    kind: 'response',
    requestId,
    url: 'https://a.example.test/',
    status: 200,
    statusText: 'OK',
    mimeType: 'text/javascript',
    headers: { 'content-type': 'text/javascript' },
    fromCache: false,
    fromServiceWorker: false,
    encodedDataLength: 300,
    type: 'Script',
    timestamp: MONO + 0.1,
    ...options,
  };
}

const finished = (requestId: string, options: Partial<FinishedEvent> = {}): FinishedEvent => ({
  seq: seq++,
  t: WALL * 1000 + 150,
  tab: 'TAB-A',
  kind: 'finished',
  requestId,
  encodedDataLength: 1_300,
  timestamp: MONO + 0.15,
  ...options,
});
const failed = (requestId: string, options: Partial<FailedEvent> = {}): FailedEvent => ({
  seq: seq++,
  t: WALL * 1000 + 50,
  tab: 'TAB-A',
  kind: 'failed',
  requestId,
  errorText: 'net::ERR_NAME_NOT_RESOLVED',
  canceled: false,
  type: 'Script',
  timestamp: MONO + 0.05,
  ...options,
});
const navigation = (url: string, options: Partial<NavigationEvent> = {}): NavigationEvent => ({
  seq: seq++,
  t: WALL * 1000,
  tab: 'TAB-A',
  kind: 'navigation',
  frameId: 'TAB-A',
  main: true,
  url,
  sameDocument: false,
  ...options,
});

/** A fresh connection over TLS: 2 ms queued, dns 0.5–10.5, connect 10.5–40.5 (ssl 20.5–40.5), send 41–41.5, headers at 90.5. */
const TIMING = {
  requestTime: MONO + 0.002,
  proxyStart: -1,
  proxyEnd: -1,
  dnsStart: 0.5,
  dnsEnd: 10.5,
  connectStart: 10.5,
  connectEnd: 40.5,
  sslStart: 20.5,
  sslEnd: 40.5,
  sendStart: 41,
  sendEnd: 41.5,
  receiveHeadersEnd: 90.5,
};

test('a finished request: request, response, sizes, the address, and timings from ResourceTiming', async () => {
  const events: TraceEvent[] = [
    request('1', 'https://a.example.test/app.js?v=3&lang=en', { method: 'POST', postDataBytes: 42 }),
    response('1', {
      url: 'https://a.example.test/app.js?v=3&lang=en',
      protocol: 'h2',
      remoteAddress: '203.0.113.7:443',
      timing: TIMING,
      requestHeaders: { accept: '*/*', cookie: '[redacted]', 'x-multi': 'a\nb' },
    }),
    finished('1', { timestamp: MONO + 0.2 }),
  ];
  const har = buildHar(events);
  await assertValidHar(har);
  assert.equal(har.log.entries.length, 1);
  const entry = har.log.entries[0]!;
  assert.equal(entry.startedDateTime, new Date(WALL * 1000).toISOString());
  assert.deepEqual(entry.request, {
    method: 'POST',
    url: 'https://a.example.test/app.js?v=3&lang=en',
    httpVersion: 'HTTP/2.0',
    cookies: [],
    headers: [
      { name: 'accept', value: '*/*' },
      { name: 'cookie', value: '[redacted]' },
      { name: 'x-multi', value: 'a' },
      { name: 'x-multi', value: 'b' },
    ],
    queryString: [
      { name: 'v', value: '3' },
      { name: 'lang', value: 'en' },
    ],
    headersSize: -1,
    bodySize: 42,
  });
  assert.deepEqual(entry.response, {
    status: 200,
    statusText: 'OK',
    httpVersion: 'HTTP/2.0',
    cookies: [],
    headers: [{ name: 'content-type', value: 'text/javascript' }],
    content: { size: 1_300, mimeType: 'text/javascript' },
    redirectURL: '',
    headersSize: -1,
    bodySize: 1_300,
    _transferSize: 1_300,
  });
  assert.equal(entry.serverIPAddress, '203.0.113.7');
  assert.equal(entry._resourceType, 'script');
  assert.equal(entry.pageref, undefined, 'no navigation seen on the tab: no page');
  // receive: the end is 198 ms after requestTime, the headers came at 90.5.
  assert.deepEqual(entry.timings, { blocked: 2.5, dns: 10, connect: 30, ssl: 20, send: 0.5, wait: 49, receive: 107.5 });
  assert.equal(entry.time, 2.5 + 10 + 30 + 0.5 + 49 + 107.5, 'the phases added up, ssl being within connect');
  assert.equal(entry.time, 199.5, 'as long as the request took (gaps between phases aside)');
});

test('timings: a reused connection has no dns, connect or ssl; without ResourceTiming the wait is until the answer', () => {
  const reused = {
    requestTime: MONO,
    dnsStart: -1,
    dnsEnd: -1,
    connectStart: -1,
    connectEnd: -1,
    sslStart: -1,
    sslEnd: -1,
    sendStart: 0.3,
    sendEnd: 0.4,
    receiveHeadersEnd: 20.4,
  };
  assert.deepEqual(harTimings(MONO, reused, MONO + 0.0204, MONO + 0.03), { blocked: 0.3, dns: -1, connect: -1, ssl: -1, send: 0.1, wait: 20, receive: 9.6 });
  assert.deepEqual(harTimings(MONO, undefined, MONO + 0.25, MONO + 0.3), { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 250, receive: 50 });
  assert.deepEqual(
    harTimings(MONO, undefined, undefined, MONO + 0.04),
    { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 40, receive: 0 },
    'a failure before any answer',
  );
  assert.deepEqual(
    harTimings(MONO, reused, MONO + 0.0204, undefined),
    { blocked: 0.3, dns: -1, connect: -1, ssl: -1, send: 0.1, wait: 20, receive: 0 },
    'unfinished',
  );
  const fromCache = { requestTime: MONO, sendStart: -1, sendEnd: -1, receiveHeadersEnd: 1 };
  const cached = harTimings(MONO, fromCache, MONO + 0.001, MONO + 0.002);
  assert.deepEqual(cached, { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 1, receive: 1 });
});

test('a redirect chain: each hop an entry with its own response and redirectURL, handed out with the last', async () => {
  const builder = new HarBuilder();
  assert.deepEqual(builder.add(request('R', 'http://a.example.test/old', { type: 'Document' })), []);
  const hop = request('R', 'https://a.example.test/new', {
    type: 'Document',
    wallTime: WALL + 0.08,
    timestamp: MONO + 0.08,
    redirectResponse: { status: 301, statusText: 'Moved Permanently', headers: { location: 'https://a.example.test/new' } },
  });
  assert.deepEqual(builder.add(hop), [], 'the hop waits for the rest of its chain');
  assert.deepEqual(builder.add(response('R', { url: 'https://a.example.test/new', mimeType: 'text/html', timestamp: MONO + 0.12 })), []);
  const entries = builder.add(finished('R', { timestamp: MONO + 0.2 }));
  assert.deepEqual(
    entries.map((e) => [e.request.url, e.response.status, e.response.redirectURL]),
    [
      ['http://a.example.test/old', 301, 'https://a.example.test/new'],
      ['https://a.example.test/new', 200, ''],
    ],
  );
  assert.deepEqual(entries[0]!.response.headers, [{ name: 'location', value: 'https://a.example.test/new' }]);
  assert.equal(entries[0]!.startedDateTime, new Date(WALL * 1000).toISOString());
  assert.equal(entries[1]!.startedDateTime, new Date((WALL + 0.08) * 1000).toISOString());
  assert.deepEqual([entries[0]!.timings.wait, entries[0]!.time], [80, 80], 'the hop lasted until the next request');
  assert.deepEqual([entries[1]!.timings.wait, entries[1]!.timings.receive], [40, 80]);
  assert.deepEqual(builder.finish(), []);
  await assertValidHar({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries } });
});

test('failures: no answer is status 0 with _error; a failure after the answer keeps its status', async () => {
  const builder = new HarBuilder();
  builder.add(request('F1', 'https://nowhere.example.test/x.js'));
  const [dns] = builder.add(failed('F1'));
  assert.deepEqual(
    [dns!.response.status, dns!.response._error, dns!.response.bodySize, dns!.response.content.mimeType],
    [0, 'net::ERR_NAME_NOT_RESOLVED', -1, 'x-unknown'],
  );
  assert.deepEqual(dns!.timings, { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 50, receive: 0 });

  builder.add(request('F2', 'https://a.example.test/video.mp4', { type: 'Media' }));
  builder.add(response('F2', { status: 206, statusText: 'Partial Content', mimeType: 'video/mp4', encodedDataLength: 5_000 }));
  const [cut] = builder.add(failed('F2', { errorText: 'net::ERR_ABORTED', canceled: true, type: 'Media', timestamp: MONO + 0.3 }));
  assert.deepEqual([cut!.response.status, cut!.response._error, cut!.response.bodySize], [206, 'net::ERR_ABORTED', 5_000]);
  assert.equal(cut!._resourceType, 'media');
  await assertValidHar({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [dns, cut] } });
});

test('requests still in flight when the trace ends come last, marked unfinished; unknown ids and other events are ignored', () => {
  const builder = new HarBuilder();
  builder.add(request('U', 'https://a.example.test/poll'));
  builder.add(response('U'));
  assert.deepEqual(builder.add(finished('never-started')), []);
  assert.deepEqual(builder.add(response('never-started')), []);
  assert.deepEqual(builder.add({ seq: seq++, t: 0, tab: 'TAB-A', kind: 'console', level: 'log', source: 'console-api', text: 'hi' }), []);
  assert.deepEqual(builder.add({ seq: seq++, t: 0, tab: 'TAB-A', kind: 'exception', text: 'Error: x' }), []);
  assert.deepEqual(builder.add({ seq: seq++, t: 0, tab: 'TAB-B', kind: 'tab', action: 'opened', url: 'about:blank' }), []);
  const [unfinished] = builder.finish();
  assert.deepEqual(
    [unfinished!.request.url, unfinished!.response.status, unfinished!._unfinished, unfinished!.timings.receive],
    ['https://a.example.test/poll', 200, true, 0],
  );
  assert.deepEqual(builder.finish(), [], 'handed out once');

  // The same id again without a redirect: the first is handed out as it stands.
  const again = new HarBuilder();
  again.add(request('D', 'https://a.example.test/one'));
  const [first] = again.add(request('D', 'https://a.example.test/two'));
  assert.deepEqual([first!.request.url, first!._unfinished], ['https://a.example.test/one', true]);
});

test("pages: one per main-frame navigation to a new document, per tab; entries take their tab's page, the document its own", async () => {
  const events: TraceEvent[] = [
    request('doc1', 'https://a.example.test/', { type: 'Document', frameId: 'TAB-A' }),
    response('doc1', { mimeType: 'text/html' }),
    navigation('https://a.example.test/', { t: WALL * 1000 + 100 }),
    finished('doc1'),
    request('js', 'https://a.example.test/app.js'),
    // Same document (history API), an iframe: no new page.
    navigation('https://a.example.test/#step2', { sameDocument: true }),
    navigation('https://ads.example.test/frame', { main: false, frameId: 'FRAME-1' }),
    request('frame', 'https://ads.example.test/frame', { type: 'Document', frameId: 'FRAME-1' }),
    finished('frame'),
    // Another tab, with a request of the same id as one of the first tab's.
    request('js', 'https://b.example.test/b.js', { tab: 'TAB-B' }),
    navigation('https://b.example.test/', { tab: 'TAB-B', frameId: 'TAB-B', t: WALL * 1000 + 200 }),
    finished('js', { tab: 'TAB-B' }),
    // The first tab goes on to a second document; app.js, started on the first page, ends after.
    request('doc2', 'https://a.example.test/next', { type: 'Document', frameId: 'TAB-A' }),
    navigation('https://a.example.test/next', { t: WALL * 1000 + 300 }),
    finished('doc2'),
    finished('js'),
    request('img', 'https://a.example.test/next.png', { type: 'Image' }),
    finished('img'),
  ];
  const har = buildHar(events);
  await assertValidHar(har);
  assert.deepEqual(har.log.pages, [
    {
      startedDateTime: new Date(WALL * 1000 + 100).toISOString(),
      id: 'page_1',
      title: 'https://a.example.test/',
      pageTimings: { onContentLoad: -1, onLoad: -1 },
    },
    {
      startedDateTime: new Date(WALL * 1000 + 200).toISOString(),
      id: 'page_2',
      title: 'https://b.example.test/',
      pageTimings: { onContentLoad: -1, onLoad: -1 },
    },
    {
      startedDateTime: new Date(WALL * 1000 + 300).toISOString(),
      id: 'page_3',
      title: 'https://a.example.test/next',
      pageTimings: { onContentLoad: -1, onLoad: -1 },
    },
  ]);
  const pageOf = (entries: HarEntry[]) => Object.fromEntries(entries.map((e) => [e.request.url, e.pageref ?? null]));
  assert.deepEqual(pageOf(har.log.entries), {
    'https://a.example.test/': 'page_1',
    'https://ads.example.test/frame': 'page_1',
    'https://b.example.test/b.js': null, // started before its tab's first navigation
    'https://a.example.test/next': 'page_3',
    'https://a.example.test/app.js': 'page_1',
    'https://a.example.test/next.png': 'page_3',
  });
  assert.deepEqual(
    har.log.entries.map((e) => e.request.url),
    [
      'https://a.example.test/',
      'https://ads.example.test/frame',
      'https://b.example.test/b.js',
      'https://a.example.test/next',
      'https://a.example.test/app.js',
      'https://a.example.test/next.png',
    ],
    'in the order their requests ended',
  );
});

test('the streamed document (opening, entries joined by commas, closing with the pages) is the HAR buildHar makes', async () => {
  const events: TraceEvent[] = [
    request('1', 'https://a.example.test/', { type: 'Document', frameId: 'TAB-A' }),
    navigation('https://a.example.test/'),
    finished('1'),
    request('2', 'https://a.example.test/a.css', { type: 'Stylesheet' }),
    failed('2'),
    request('3', 'https://a.example.test/slow'),
  ];
  const builder = new HarBuilder();
  const parts = events
    .flatMap((event) => builder.add(event))
    .concat(builder.finish())
    .map((entry) => JSON.stringify(entry));
  const streamed = JSON.parse(harOpening() + parts.join(',') + harClosing(builder.pages));
  assert.deepEqual(streamed, buildHar(events));
  await assertValidHar(streamed);
  assert.deepEqual(
    JSON.parse(harOpening() + harClosing([])),
    { log: { version: '1.2', creator: { name: 'browser-router', version: '1' }, entries: [], pages: [] } },
    'a trace without requests',
  );
});

test('server addresses: the port and brackets go, anything that is no IP address is left out', () => {
  const addressOf = (remoteAddress: string) => {
    const builder = new HarBuilder();
    builder.add(request('a', 'https://a.example.test/'));
    builder.add(response('a', { remoteAddress }));
    return builder.add(finished('a'))[0]!.serverIPAddress;
  };
  assert.equal(addressOf('198.51.100.2:8080'), '198.51.100.2');
  assert.equal(addressOf('[2001:db8::1]:443'), '2001:db8::1');
  assert.equal(addressOf('2001:db8::2'), '2001:db8::2');
  assert.equal(addressOf('proxy.internal:3128'), undefined);
  assert.equal(addressOf(''), undefined);
});
