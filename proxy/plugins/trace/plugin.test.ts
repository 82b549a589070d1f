// The trace plugin and its event store without a browser: CDP messages as Chromium sends them go
// in, events come out on a real filesystem blob store. Tabs from sessions (iframes and workers
// belong to their page's tab), what the client never enabled, the event limit and what is
// counted past it, the cheap tests on raw payloads, pages of exactly 1,000 events, and a page that
// could not be stored reported by close().
import { test as nodeTest } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BlobStore, BlobWriter } from '../../../lib/blobs';
import { FsBlobStore } from '../../../lib/blobs/fs-store';
import { pageKey, parsePage, traceCompleteKey, type TraceEvent, type TraceSummary } from '../../../lib/traces/format';
import { extraRedactNames } from '../../../lib/traces/redact';
import { EventStore } from './event-store';
import { TracePlugin } from './plugin';

/**
 * Each test is over in milliseconds; a deadline turns a hang (seen once in the full suite, never
 * reproduced alone) into a failure that names the test instead of a suite that never ends.
 */
const test = (name: string, fn: () => void | Promise<void>) => nodeTest(name, { timeout: 20_000 }, fn);

function harness(maxEvents = 1_000_000, extra?: ReadonlySet<string>) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'trace-'));
  const store = new EventStore(new FsBlobStore(root), 'trc_t', maxEvents);
  const plugin = new TracePlugin(store, 'event-cap', () => 1_000, extra);
  plugin.onStart();
  /** A provider message as the lane gives it: tested on its bytes first, read only when wanted. */
  const provider = (message: object) => {
    const payload = Buffer.from(JSON.stringify(message));
    if (plugin.wantsProviderMessage(payload)) plugin.onProviderMessage(JSON.parse(payload.toString()));
  };
  const client = (message: object) => {
    const payload = Buffer.from(JSON.stringify(message));
    if (plugin.wantsClientMessage(payload)) plugin.onClientMessage(JSON.parse(payload.toString()));
  };
  const close = async () => {
    plugin.stop(null);
    const summary = await store.close({ traceId: 'trc_t', sessionId: 's', startedAt: 'a', endedAt: 'b', durationMs: 1, truncated: plugin.truncated });
    const events: TraceEvent[] = [];
    for (let page = 0; page < summary.pages; page++) events.push(...parsePage(readFileSync(path.join(root, ...pageKey('trc_t', page).split('/')), 'utf8')));
    return { summary, events, written: JSON.parse(readFileSync(path.join(root, ...traceCompleteKey('trc_t').split('/')), 'utf8')) as TraceSummary };
  };
  return { plugin, store, provider, client, close };
}

const attach = (sessionId: string, targetId: string, type: string, parent?: string) => ({
  method: 'Target.attachedToTarget',
  params: { sessionId, targetInfo: { targetId, type, url: 'about:blank' }, waitingForDebugger: false },
  ...(parent && { sessionId: parent }),
});

test("events of iframes and workers belong to their page's tab; a tab closes with its last session", async () => {
  const h = harness();
  h.provider(attach('S1', 'TAB1', 'page'));
  for (const method of ['Network.enable', 'Runtime.enable', 'Page.enable']) h.client({ id: 1, method, sessionId: 'S1' });
  h.provider(attach('S2', 'FRAME', 'iframe', 'S1'));
  h.provider(attach('S3', 'WORKER', 'worker', 'S2'));
  h.provider({
    method: 'Runtime.consoleAPICalled',
    params: {
      type: 'warning',
      args: [
        { type: 'string', value: 'from a worker' },
        { type: 'number', value: 7 },
        { type: 'object', description: 'Object' },
      ],
    },
    sessionId: 'S3',
  });
  h.provider({
    method: 'Page.frameNavigated',
    params: { frame: { id: 'F2', parentId: 'F1', url: 'https://x.test/frame' }, type: 'Navigation' },
    sessionId: 'S2',
  });
  h.provider({
    method: 'Network.requestWillBeSent',
    params: {
      requestId: 'R1',
      request: { url: 'https://x.test/a', method: 'POST', headers: { Cookie: 'c=1' }, postData: 'é=1' },
      timestamp: 5,
      wallTime: 1_700_000_000,
      type: 'XHR',
      initiator: { type: 'script' },
    },
    sessionId: 'S1',
  });
  h.provider({ method: 'Browser.downloadWillBegin', params: {}, sessionId: 'S1' }); // not traced
  h.provider({ id: 9, result: { method: 'Network.requestWillBeSent' } }); // a reply is never read
  h.provider({ method: 'Target.detachedFromTarget', params: { sessionId: 'S1' } });
  const { events } = await h.close();
  assert.deepEqual(
    events.map((e) => [e.kind, e.tab]),
    [
      ['tab', 'TAB1'],
      ['console', 'TAB1'],
      ['navigation', 'TAB1'],
      ['request', 'TAB1'],
      ['tab', 'TAB1'],
    ],
  );
  const [, consoleLine, navigation, request, closed] = events as [
    unknown,
    Extract<TraceEvent, { kind: 'console' }>,
    Extract<TraceEvent, { kind: 'navigation' }>,
    Extract<TraceEvent, { kind: 'request' }>,
    Extract<TraceEvent, { kind: 'tab' }>,
  ];
  assert.equal(consoleLine.text, 'from a worker 7 Object');
  assert.equal(consoleLine.level, 'warning');
  assert.equal(navigation.main, false);
  assert.deepEqual(request.headers, { Cookie: '[redacted]' });
  assert.equal(request.postDataBytes, 4, 'bytes, not characters');
  assert.equal(closed.action, 'closed');
});

test("the router's own names are redacted wherever the defaults are: request, redirect and response headers, URLs of requests, navigations, tabs and console lines", async () => {
  const h = harness(1_000_000, extraRedactNames(['X-Site-Id', 'acct']));
  h.provider({ ...attach('S1', 'TAB1', 'page'), params: { sessionId: 'S1', targetInfo: { targetId: 'TAB1', type: 'page', url: 'https://x.test/?acct=1' } } });
  for (const method of ['Network.enable', 'Runtime.enable', 'Page.enable']) h.client({ id: 1, method, sessionId: 'S1' });
  const headers = { 'x-site-id': 'h1', 'X-Other': 'kept', Authorization: 'Bearer t' };
  h.provider({
    method: 'Network.requestWillBeSent',
    params: {
      requestId: 'R1',
      request: { url: 'https://x.test/a?ACCT=2&keep=1', method: 'GET', headers },
      redirectResponse: { status: 302, headers: { 'X-SITE-ID': 'h2', Location: '/a' } },
      timestamp: 5,
      wallTime: 1_700_000_000,
      type: 'Fetch',
    },
    sessionId: 'S1',
  });
  h.provider({
    method: 'Network.responseReceived',
    params: {
      requestId: 'R1',
      response: { url: 'https://x.test/a?acct=3', status: 200, headers: { 'X-Site-Id': 'h3' }, requestHeaders: headers },
      timestamp: 6,
      type: 'Fetch',
    },
    sessionId: 'S1',
  });
  h.provider({ method: 'Page.frameNavigated', params: { frame: { id: 'TAB1', url: 'https://x.test/p?acct=4', urlFragment: '#acct=5' } }, sessionId: 'S1' });
  h.provider({ method: 'Page.navigatedWithinDocument', params: { frameId: 'TAB1', url: 'https://x.test/p#acct=6&state=s' }, sessionId: 'S1' });
  h.provider({
    method: 'Log.entryAdded',
    params: { entry: { level: 'error', source: 'network', text: 'failed', url: 'https://x.test/s.js?acct=7' } },
    sessionId: 'S1',
  });
  const { events } = await h.close();
  const request = events.find((e): e is Extract<TraceEvent, { kind: 'request' }> => e.kind === 'request')!;
  const response = events.find((e): e is Extract<TraceEvent, { kind: 'response' }> => e.kind === 'response')!;
  assert.equal(request.url, 'https://x.test/a?ACCT=[redacted]&keep=1');
  assert.deepEqual(request.headers, { 'x-site-id': '[redacted]', 'X-Other': 'kept', Authorization: '[redacted]' });
  assert.deepEqual(request.redirectResponse?.headers, { 'X-SITE-ID': '[redacted]', Location: '/a' });
  assert.equal(response.url, 'https://x.test/a?acct=[redacted]');
  assert.deepEqual(
    [response.headers, response.requestHeaders],
    [{ 'X-Site-Id': '[redacted]' }, { 'x-site-id': '[redacted]', 'X-Other': 'kept', Authorization: '[redacted]' }],
  );
  assert.deepEqual(
    events.flatMap((e) => ((e.kind === 'navigation' || e.kind === 'tab' || e.kind === 'console') && 'url' in e && e.url ? [e.url] : [])),
    [
      'https://x.test/?acct=[redacted]',
      'https://x.test/p?acct=[redacted]#acct=[redacted]',
      'https://x.test/p#acct=[redacted]&state=s',
      'https://x.test/s.js?acct=[redacted]',
    ],
  );
});

test('a tab whose client never enabled a domain gets a note naming it, at its close or at the end; no page at all is said too', async () => {
  const h = harness();
  h.provider(attach('S1', 'TAB1', 'page'));
  h.client({ id: 1, method: 'Page.enable', sessionId: 'S1' });
  h.provider(attach('S2', 'TAB2', 'page'));
  h.client({ id: 2, method: 'Runtime.enable', sessionId: 'S2' });
  h.provider({ method: 'Target.detachedFromTarget', params: { sessionId: 'S2' } });
  const { events } = await h.close();
  const notes = events.filter((e): e is Extract<TraceEvent, { kind: 'note' }> => e.kind === 'note');
  assert.deepEqual(
    notes.map((n) => [n.tab, n.missing]),
    [
      ['TAB2', ['network', 'navigation']],
      ['TAB1', ['network', 'console']],
    ],
  );

  const none = harness();
  none.client({ id: 1, method: 'Browser.getVersion' });
  const { events: only } = await none.close();
  assert.deepEqual(
    only.map((e) => e.kind === 'note' && [e.tab, e.missing]),
    [[null, ['network', 'console', 'navigation']]],
  );
});

test('at the limit capture stops with its reason; later events are counted as dropped without being read', async () => {
  const h = harness(3);
  h.provider(attach('S1', 'TAB1', 'page'));
  for (let i = 0; i < 5; i++)
    h.provider({ method: 'Network.loadingFinished', params: { requestId: `R${i}`, timestamp: i, encodedDataLength: 10 }, sessionId: 'S1' });
  h.provider({ method: 'Target.attachedToTarget', params: {} }); // bookkeeping past the stop: not counted
  assert.equal(h.plugin.truncated, 'event-cap');
  const { summary, events, written } = await h.close();
  assert.equal(events.length, 3);
  assert.equal(summary.eventCount, 3);
  assert.equal(summary.droppedEvents, 3, 'the event that met the limit and the two after it');
  assert.equal(summary.truncated, 'event-cap');
  assert.deepEqual(written, summary);
});

test('a provider that orders its keys otherwise is still read; the client is read only for enable calls', () => {
  const h = harness();
  assert.equal(h.plugin.wantsProviderMessage(Buffer.from('{"params":{},"method":"Network.loadingFinished"}')), true);
  assert.equal(h.plugin.wantsProviderMessage(Buffer.from('{"id":3,"result":{}}')), false);
  assert.equal(h.plugin.wantsProviderMessage(Buffer.from('{"method":"Page.screencastFrame","params":{}}')), false);
  assert.equal(h.plugin.wantsClientMessage(Buffer.from('{"id":1,"method":"Runtime.evaluate","params":{"expression":"1"}}')), false);
  assert.equal(h.plugin.wantsClientMessage(Buffer.from('{"id":1,"method":"Network.enable"}')), true);
});

test('pages hold exactly 1,000 events, numbered across pages', async () => {
  const h = harness();
  for (let i = 0; i < 2_345; i++) h.store.add({ kind: 'console', t: i, tab: null, level: 'log', source: 'log', text: String(i) });
  const { summary, events } = await h.close();
  assert.equal(summary.pages, 3);
  assert.equal(events.length, 2_346); // with the note that no page was seen
  assert.ok(events.every((e, i) => e.seq === i));
});

test('a page that could not be stored fails close(), not the process, even when it failed long before', async () => {
  const failing = (): BlobWriter => ({
    write: () => true,
    pendingBytes: 0,
    bytesWritten: 0,
    drained: async () => {},
    end: () => Promise.reject(new Error('could not store blob')),
  });
  const events = new EventStore({ writer: failing, put: async () => {} } as unknown as BlobStore, 'trc_f', 1_000_000);
  // The second page's first event ends the first page, which fails.
  for (let i = 0; i < 1_001; i++) events.add({ kind: 'console', t: i, tab: null, level: 'log', source: 'log', text: String(i) });
  // A turn of the event loop: an unhandled rejection would be reported by now.
  await new Promise((resolve) => setImmediate(resolve));
  await assert.rejects(
    events.close({ traceId: 'trc_f', sessionId: 's', startedAt: 'a', endedAt: 'b', durationMs: 1, truncated: null }),
    /could not store blob/,
  );
});

test('a tab destroyed before its detach arrives is closed once', async () => {
  const h = harness();
  h.provider(attach('S1', 'TAB1', 'page'));
  for (const method of ['Network.enable', 'Runtime.enable', 'Page.enable']) h.client({ id: 1, method, sessionId: 'S1' });
  h.provider({ method: 'Target.targetDestroyed', params: { targetId: 'TAB1' } });
  h.provider({ method: 'Target.detachedFromTarget', params: { sessionId: 'S1', targetId: 'TAB1' } });
  h.provider({ method: 'Target.targetDestroyed', params: { targetId: 'NEVER-SEEN' } });
  const { events } = await h.close();
  assert.deepEqual(
    events.map((e) => e.kind === 'tab' && e.action),
    ['opened', 'closed'],
  );
});

test('downloads: each once whichever forms the browser sends, on its tab, its source redacted; the completed ones listed, a canceled one not', async () => {
  const { plugin, provider, close } = harness();
  provider(attach('S1', 'TAB1', 'page'));
  const begin = (guid: string, name: string) => ({ guid, url: `https://files.example/${name}?session=abc`, suggestedFilename: name, frameId: 'TAB1' });
  // Chromium sends the Page.* form in the tab's session and the Browser.* form at the browser level.
  for (const message of [
    { method: 'Page.downloadWillBegin', params: begin('g1', 'report.pdf'), sessionId: 'S1' },
    { method: 'Browser.downloadWillBegin', params: begin('g1', 'report.pdf') },
    { method: 'Browser.downloadProgress', params: { guid: 'g1', state: 'inProgress', receivedBytes: 10, totalBytes: 20 } },
    { method: 'Browser.downloadProgress', params: { guid: 'g1', state: 'completed', receivedBytes: 20, totalBytes: 20 } },
    { method: 'Page.downloadProgress', params: { guid: 'g1', state: 'completed', receivedBytes: 20, totalBytes: 20 }, sessionId: 'S1' },
    { method: 'Browser.downloadWillBegin', params: begin('g2', 'big.iso') },
    { method: 'Browser.downloadProgress', params: { guid: 'g2', state: 'canceled', receivedBytes: 5, totalBytes: 900 } },
    { method: 'Browser.downloadProgress', params: { guid: 'unknown', state: 'completed', receivedBytes: 1 } },
  ])
    provider(message);
  assert.deepEqual(plugin.downloads.completed, [{ name: 'report.pdf', url: 'https://files.example/report.pdf?session=[redacted]', bytes: 20, at: 1_000 }]);
  const { events } = await close();
  assert.deepEqual(
    events.filter((e) => e.kind === 'download').map(({ seq: _seq, t: _t, ...e }) => e),
    [
      { kind: 'download', tab: 'TAB1', guid: 'g1', state: 'started', url: 'https://files.example/report.pdf?session=[redacted]', name: 'report.pdf' },
      { kind: 'download', tab: 'TAB1', guid: 'g1', state: 'completed', bytes: 20 },
      { kind: 'download', tab: 'TAB1', guid: 'g2', state: 'started', url: 'https://files.example/big.iso?session=[redacted]', name: 'big.iso' },
      { kind: 'download', tab: 'TAB1', guid: 'g2', state: 'canceled', bytes: 5 },
    ],
  );
});
