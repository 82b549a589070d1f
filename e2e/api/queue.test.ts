// maxConcurrent under load, the queue (wait, timeout, full), a lightweight CDP upstream.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { connectUrl, eventually, expectOpened, expectRefused, isOpened, open, PROXY, refusedYet, routerKey } from '../support/connect';
import { addProvider, updateRouterRow } from '../support/providers';

let browser: Chromium;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.stop();
});

test('50 concurrent connects against maxConcurrent 3 never exceed 3 active; all are served', async () => {
  const user = await newUser('q50');
  await updateRouterRow(user.routerId, { queueMaxSize: 100, queueTimeoutMs: 60_000 });
  await addProvider(user.workspaceId, user.routerId, { slug: 'only', url: browser.wsUrl, maxConcurrent: 3 });
  const key = await routerKey(user.workspaceId, user.routerId);
  let active = 0;
  let peak = 0;
  // The proxy's own count, read over and over while the connects run (one read at a time).
  const statusReads: { active: number; queued: number }[] = [];
  let polling = true;
  const poll = (async () => {
    while (polling) {
      const body = (await (await fetch(`${PROXY.replace(/^ws/, 'http')}/v1/status?token=${key}`)).json()) as {
        providers: { active: number }[];
        queued: number;
      };
      statusReads.push({ active: body.providers[0]!.active, queued: body.queued });
    }
  })();
  const results = await Promise.all(
    Array.from({ length: 50 }, async () => {
      const s = await expectOpened(connectUrl(key));
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setImmediate(r));
      active--;
      s.ws.close();
      await s.closed;
      return s.provider;
    }),
  );
  polling = false;
  await poll;
  assert.equal(results.length, 50);
  assert.ok(peak <= 3, `client-side peak ${peak}`);
  // A poll that saw nothing proves nothing: it must have watched sessions run and wait.
  assert.ok(statusReads.length >= 5, `only ${statusReads.length} status reads`);
  const statusPeak = Math.max(...statusReads.map((r) => r.active));
  assert.ok(statusPeak >= 1, 'the status poll never saw a session running');
  assert.ok(statusPeak <= 3, `status peak ${statusPeak}`);
  assert.ok(
    statusReads.some((r) => r.queued > 0),
    'the status poll never saw a connect waiting in the queue',
  );
});

test('queue: a waiter gets the freed slot; timeout → 429; full → 503; disabled → 429', async () => {
  const user = await newUser('qrules');
  await updateRouterRow(user.routerId, { queueMaxSize: 1, queueTimeoutMs: 600 });
  await addProvider(user.workspaceId, user.routerId, { slug: 'one', url: browser.wsUrl, maxConcurrent: 1 });
  const key = await routerKey(user.workspaceId, user.routerId);
  const holder = await expectOpened(connectUrl(key));

  // Timeout: nothing frees the slot within 600 ms.
  const started = Date.now();
  const timedOut = await expectRefused(connectUrl(key), 429);
  assert.ok(Date.now() - started >= 550, 'waited for the queue timeout');
  assert.match(timedOut.body, /busy/);

  // Full: one waiter fills the queue of size 1; the next is refused at once.
  const waiting = open(connectUrl(key));
  await eventually(
    async () => ((await (await fetch(`${PROXY.replace(/^ws/, 'http')}/v1/status?token=${key}`)).json()) as { queued: number }).queued === 1,
    15_000,
    'the waiter to queue',
  );
  const full = await expectRefused(connectUrl(key), 503);
  assert.match(full.body, /queue is full/);
  holder.ws.close();
  const served = await waiting;
  assert.ok(isOpened(served), 'the waiter got the freed slot');
  served.ws.close();
  await served.closed;

  await updateRouterRow(user.routerId, { queueMaxSize: 0 });
  const again = await expectOpened(connectUrl(key));
  // The change reaches the proxy through NOTIFY; until then a waiter would still queue.
  await eventually(async () => /concurrency limit/.test((await refusedYet(connectUrl(key), 429))?.body ?? ''), 5_000, 'queue off');
  again.ws.close();
});
