// Helper tabs on a real Chromium: an origin is given the run's time, not a limit of its own (a
// loaded machine's first page can take seconds); the run still ends at its end, and starts no
// origin after its start-by instant.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchChromium, type Chromium } from '../../../e2e/support/chromium';
import { CdpSocket } from '../../../lib/cdp/socket';
import type { Cdp } from './cdp';
import { runOnOrigins } from './helper-pages';

let browser: Chromium;
let conn: CdpSocket;
let cdp: Cdp;
before(async () => {
  browser = await launchChromium();
  conn = await CdpSocket.open(browser.wsUrl, { handshakeTimeoutMs: 30_000, commandTimeoutMs: 30_000 });
  cdp = {
    send: (method, params, sessionId) => conn.send(method, params, sessionId),
    // The helper tabs listen to one event: the requests they answer themselves.
    onEvent: (listener) => conn.on('Fetch.requestPaused', (params, sessionId) => listener({ method: 'Fetch.requestPaused', params: { ...params }, sessionId })),
  };
});
after(async () => {
  conn?.close();
  await browser?.stop();
});

/** A page expression that answers `value` after `ms` (work in the page that takes that long). */
const answerAfter = (ms: number, value: string) => `new Promise((resolve) => setTimeout(() => resolve(${JSON.stringify(value)}), ${ms}))`;

test('an origin that takes longer than 3 s is read while the run has time', async () => {
  const run = await runOnOrigins<string>(
    cdp,
    ['http://slow.test', 'http://quick.test'],
    (origin) => (origin === 'http://slow.test' ? answerAfter(3_500, 'slow') : '"quick"'),
    { parallel: 2, endAt: performance.now() + 30_000 },
  );
  assert.deepEqual(Object.fromEntries(run.results), { 'http://slow.test': 'slow', 'http://quick.test': 'quick' });
  assert.equal(run.failed.size, 0);
});

test("an origin still under way at the run's end is given up then, with the reason", async () => {
  // The end leaves the tab's opening (seconds on a loaded machine) room before the origin starts.
  const started = performance.now();
  const run = await runOnOrigins<string>(cdp, ['http://stuck.test'], () => 'new Promise(() => {})', { parallel: 1, endAt: started + 15_000 });
  const took = performance.now() - started;
  assert.equal(run.results.size, 0);
  assert.match(run.failed.get('http://stuck.test') ?? '', /origin http:\/\/stuck\.test took longer than/);
  assert.ok(took >= 14_900 && took < 40_000, `gave up after ${Math.round(took)} ms`);
});

test('no origin is started after the start-by instant: the rest are "out of time"', async () => {
  // The first origin starts before the start-by instant (its tab's opening has 15 s) and ends only
  // after it, by the wall clock the page shares with this process.
  const startBy = Date.now() + 15_000;
  const untilAfter = `new Promise((resolve) => { const wait = () => (Date.now() > ${startBy + 100} ? resolve('first') : setTimeout(wait, 20)); wait(); })`;
  const run = await runOnOrigins<string>(
    cdp,
    ['http://first.test', 'http://second.test'],
    (origin) => (origin === 'http://first.test' ? untilAfter : '"second"'),
    {
      parallel: 1,
      startBy: performance.now() + 15_000,
      endAt: performance.now() + 60_000,
    },
  );
  assert.deepEqual(Object.fromEntries(run.results), { 'http://first.test': 'first' });
  assert.deepEqual(Object.fromEntries(run.failed), { 'http://second.test': 'out of time' });
});
