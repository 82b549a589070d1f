// A router's own names to redact in its traces (`traceRedactNames`, docs/traces.md "Secrets"),
// over real sockets: a standalone Chromium as the provider, the local test site, a proxy of this
// file's own (so the test can wait for the router change to reach it, the way any proxy hears of
// it: NOTIFY). A traced session before the change keeps the site's own names; after a PATCH, the
// next session's trace and its HAR show `[redacted]` for them in headers, the query and the
// fragment, the defaults still apply, and the other parameters are kept.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { call, expectOk } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { eventually } from '../support/connect';
import { startTestSite, type TestSite } from '../support/test-site';
import { newestSessionId, ownProxy, userWithProvider, type CaptureUser } from '../support/capture';
import type { ProxyServer } from '../../proxy/server';
import { db } from '../../lib/db';
import { pageKey, parsePage, type NavigationEvent, type RequestEvent, type TraceEvent } from '../../lib/traces/format';

const SLOW = { timeout: 120_000 };
const blobFile = (key: string) => path.join(process.env.DATA_DIR ?? '.data', 'blobs', ...key.split('/'));

let browser: Chromium;
let site: TestSite;
let proxy: ProxyServer;
let proxyUrl: string;

before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
  ({ proxy, url: proxyUrl } = await ownProxy('trace-names', {}));
});
after(async () => {
  await proxy?.stop();
  await Promise.all([browser?.stop(), site?.close()]);
});

const HEADER_VALUE = 'site-secret-header-value';
const ACCT = 'site-secret-acct-123';
const FRAGMENT_ACCT = 'site-secret-fragment-acct';

/**
 * A traced Playwright session that fetches with the site's own credential header and parameter
 * (and a default one), then moves to a fragment carrying the parameter; answers its stored
 * events, their raw text, and the trace's id once the trace is complete.
 */
async function tracedSession(user: CaptureUser) {
  const pw = await chromium.connectOverCDP(`${proxyUrl}/v1/connect?${new URLSearchParams({ token: user.key, observability: 'true' })}`);
  const page = await pw.contexts()[0]!.newPage();
  await page.goto(`${site.url}/traced-next`);
  await page.evaluate(
    ({ value, acct }) => fetch(`/api/ok?n=7&acct=${acct}&keep=1&token=default-secret`, { headers: { 'X-Site-Secret-Id': value, 'X-Other-Id': 'visible' } }),
    { value: HEADER_VALUE, acct: ACCT },
  );
  await page.evaluate((acct) => {
    location.hash = `ACCT=${acct}&state=kept`;
  }, FRAGMENT_ACCT);
  await page.waitForFunction(() => location.hash.includes('state=kept'));
  const sessionId = await newestSessionId(user.workspaceId);
  await pw.close();
  const trace = await eventually(
    async () => {
      const row = await db.trace.findUnique({ where: { sessionLogId: sessionId } });
      return row?.complete ? row : null;
    },
    15_000,
    'the trace to complete',
  );
  let raw = '';
  for (let n = 0; ; n++) {
    const text = await readFile(blobFile(pageKey(trace.id, n)), 'utf8').catch(() => null);
    if (text === null) break;
    raw += text;
  }
  const events: TraceEvent[] = parsePage(raw);
  const fetched = events.find((e): e is RequestEvent => e.kind === 'request' && e.url.includes('n=7'));
  assert.ok(fetched, 'the fetch is in the trace');
  const fragment = events.find((e): e is NavigationEvent => e.kind === 'navigation' && e.sameDocument && e.url.includes('state=kept'));
  assert.ok(fragment, 'the fragment navigation is in the trace');
  return { traceId: trace.id, raw, events, fetched, fragment };
}

/** Every header set of the trace's requests and responses, with where it was seen. */
function headerSets(events: TraceEvent[]): [string, Record<string, string>][] {
  return events.flatMap((e): [string, Record<string, string>][] => {
    if (e.kind === 'request')
      return [
        [`request ${e.seq}`, e.headers],
        ...(e.redirectResponse ? [[`redirect ${e.seq}`, e.redirectResponse.headers] as [string, Record<string, string>]] : []),
      ];
    if (e.kind === 'response')
      return [
        [`response ${e.seq}`, e.headers],
        ...(e.requestHeaders ? [[`response ${e.seq} (sent)`, e.requestHeaders] as [string, Record<string, string>]] : []),
      ];
    return [];
  });
}

test("a router's traceRedactNames reach its next session's trace and HAR after a PATCH, without a proxy restart", SLOW, async () => {
  const user = await userWithProvider('trace-names', browser.wsUrl);
  const auth = { token: user.token };

  // Before: the site's own names are not credentials by default, so they are kept (the router is now loaded on the proxy).
  const plain = await tracedSession(user);
  assert.ok(plain.fetched.url.endsWith(`/api/ok?n=7&acct=${ACCT}&keep=1&token=[redacted]`), plain.fetched.url);
  assert.equal(plain.fetched.headers['X-Site-Secret-Id'], HEADER_VALUE);
  assert.ok(plain.fragment.url.endsWith(`#ACCT=${FRAGMENT_ACCT}&state=kept`), plain.fragment.url);

  const patched = expectOk(await call('PATCH', `/v1/routers/${user.routerId}`, { auth, body: { traceRedactNames: ['X-Site-Secret-Id', 'acct'] } }));
  assert.deepEqual(patched.traceRedactNames, ['X-Site-Secret-Id', 'acct']);
  // The change reaches the proxy through NOTIFY, as every router setting does.
  await eventually(async () => (await proxy.routers.get(user.routerId))?.traceRedactNames.has('acct'), 10_000, 'the router refresh on the proxy');

  const redacted = await tracedSession(user);
  for (const secret of [HEADER_VALUE, ACCT, FRAGMENT_ACCT, 'default-secret']) assert.equal(redacted.raw.includes(secret), false, `${secret} is not stored`);
  assert.ok(redacted.fetched.url.endsWith('/api/ok?n=7&acct=[redacted]&keep=1&token=[redacted]'), redacted.fetched.url);
  assert.equal(redacted.fetched.headers['X-Site-Secret-Id'], '[redacted]');
  assert.equal(redacted.fetched.headers['X-Other-Id'], 'visible');
  assert.ok(redacted.fragment.url.endsWith('#ACCT=[redacted]&state=kept'), `${redacted.fragment.url}: compared without case`);
  for (const [where, headers] of headerSets(redacted.events)) {
    for (const [name, value] of Object.entries(headers))
      if (name.toLowerCase() === 'x-site-secret-id') assert.equal(value, '[redacted]', `${name} of ${where}`);
  }

  // The HAR is made from the stored trace: the same values, redacted; the rest kept.
  const har = await call('GET', `/v1/inspections/${redacted.traceId}/events?download=har`, { auth });
  assert.equal(har.status, 200);
  const text = JSON.stringify(har.body);
  for (const secret of [HEADER_VALUE, ACCT]) assert.equal(text.includes(secret), false, `${secret} is not in the HAR`);
  const entry = (
    har.body as { log: { entries: { request: { url: string; headers: { name: string; value: string }[]; queryString: { name: string; value: string }[] } }[] } }
  ).log.entries.find((e) => e.request.url.includes('n=7'));
  assert.ok(entry, 'the fetch is in the HAR');
  assert.deepEqual(
    entry.request.queryString.filter((q) => ['acct', 'keep'].includes(q.name)).map((q) => [q.name, q.value]),
    [
      ['acct', '[redacted]'],
      ['keep', '1'],
    ],
  );
  assert.ok(
    entry.request.headers.some((h) => h.name.toLowerCase() === 'x-site-secret-id' && h.value === '[redacted]'),
    JSON.stringify(entry.request.headers),
  );
});
