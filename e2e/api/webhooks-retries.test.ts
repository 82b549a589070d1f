// Retries by the proxy's delivery worker at the hosted schedule, against real receivers that fail,
// hang, or are down and then come up. The stack runs the schedule short (WEBHOOK_RETRY_DELAYS_MS,
// WEBHOOK_ATTEMPT_TIMEOUT_MS); that its defaults are docs/api.md's (0.5, 2, 8 s; 5 s per attempt) is
// a unit test of lib/config/durations.ts. These read it from the same environment as the proxy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectOk, newUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { cdp, connectUrl, eventually, expectOpened, routerKey } from '../support/connect';
import { addProvider } from '../support/providers';
import { startReceiver } from '../support/webhook-receiver';
import { createWebhook, deliveriesOf, deliveryStatus, oneSession } from '../support/webhooks';
import { settings } from '../../lib/config/settings';
import { DEFAULT_POLL_MS } from '../../proxy/webhooks/delivery-worker';

// Arrival gaps are at least the delay (it starts after the failed attempt). A retry is due `delay`
// after the failed attempt is recorded; the worker's timer wakes for it, and its poll would find it
// at the latest DEFAULT_POLL_MS later. LATE_MS allows that much beside the slack of a loaded machine
// (an encode on both cores starves the stack's proxy for a second): what it still catches is a
// retry that waited for something else, such as a claim's lease (the attempt timeout + 25 s). Which
// delay each retry takes is lib/webhooks/schedule.test.ts's.
const SLACK_MS = 1_000;
const LATE_MS = DEFAULT_POLL_MS + SLACK_MS;
const { webhookRetryDelaysMs: DELAYS, webhookAttemptTimeoutMs: ATTEMPT_TIMEOUT_MS } = settings();
const ATTEMPTS = DELAYS.length + 1;
/** How send-webhook words a timeout. */
const inWords = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

let browser: Chromium;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.stop();
});

async function userWithProvider(tag: string) {
  const user = await newUser(tag);
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browser.wsUrl });
  return { user, key: await routerKey(user.workspaceId, user.routerId) };
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => Math.round(t - times[i]!));

test("500s until the last attempt's 200: retried after each delay of the schedule (0.5, 2 and 8 s in production); a receiver that always fails is given up after the last", async () => {
  const receiver = await startReceiver({ answer: (r, nth) => (r.path === '/flaky' && nth === ATTEMPTS ? 200 : 500) });
  try {
    const { user, key } = await userWithProvider('whretry');
    const flaky = await createWebhook(user, { label: 'Flaky', url: `${receiver.url}/flaky` });
    const dead = await createWebhook(user, { label: 'Dead', url: `${receiver.url}/dead` });
    const session = await oneSession(connectUrl(key));
    const outbox = await deliveriesOf(session.id);
    const flakyId = outbox.find((d) => d.webhookId === flaky.id)!.id;
    const deadId = outbox.find((d) => d.webhookId === dead.id)!.id;

    const flakyRequests = await receiver.waitFor(ATTEMPTS, (r) => r.path === '/flaky', 20_000);
    const measured = gaps(flakyRequests.map((r) => r.at));
    DELAYS.forEach((delay, i) => {
      assert.ok(
        measured[i]! >= delay - 10 && measured[i]! <= delay + LATE_MS,
        `retry ${i + 1} came ${measured[i]} ms after the previous attempt, expected ${delay} ms (gaps ${measured.join(', ')})`,
      );
    });
    assert.deepEqual(
      flakyRequests.map((r) => r.headers['x-webhook-attempt']),
      Array.from({ length: ATTEMPTS }, (_, i) => String(i + 1)),
    );
    assert.deepEqual(new Set(flakyRequests.map((r) => r.headers['x-webhook-delivery-id'])), new Set([flakyId]), 'one delivery id on every attempt');
    assert.deepEqual(new Set(flakyRequests.map((r) => r.raw)).size, 1, 'the same body on every attempt');
    await eventually(async () => (await deliveryStatus(flakyId)) === 'delivered', 5_000, 'flaky delivered');

    await receiver.waitFor(ATTEMPTS, (r) => r.path === '/dead', 5_000);
    await eventually(async () => (await deliveryStatus(deadId)) === 'failed', 5_000, 'dead given up');
    // Given up is final: a failed row is never claimed again.
    assert.equal(receiver.on('/dead').length, ATTEMPTS);
    const deadNow = expectOk(await call('GET', `/v1/webhooks/${dead.id}`, { auth: { token: user.token } }));
    assert.equal(deadNow.lastFailureReason, 'HTTP 500 Internal Server Error');
    assert.ok(deadNow.lastFailureAt);
    assert.equal(deadNow.lastDeliveredAt, null);
    const flakyNow = expectOk(await call('GET', `/v1/webhooks/${flaky.id}`, { auth: { token: user.token } }));
    assert.ok(flakyNow.lastDeliveredAt && flakyNow.lastFailureAt && flakyNow.lastDeliveredAt > flakyNow.lastFailureAt);

    const log = expectOk(await call('GET', `/v1/webhooks/${dead.id}/deliveries`, { auth: { token: user.token } }));
    assert.deepEqual(
      log.items.map((a: any) => [a.attempt, a.statusCode, a.deliveryStatus]),
      Array.from({ length: ATTEMPTS }, (_, i) => [ATTEMPTS - i, 500, 'failed']),
    );
  } finally {
    await receiver.close();
  }
});

test('a receiver that hangs past the attempt timeout (5 s in production) fails that attempt without delaying other webhooks or the proxy', async () => {
  const receiver = await startReceiver({ answer: (r, nth) => (r.path === '/hang' && nth === 1 ? 'hang' : 200) });
  try {
    const { user, key } = await userWithProvider('whhang');
    const hang = await createWebhook(user, { label: 'Hangs', url: `${receiver.url}/hang` });
    await createWebhook(user, { label: 'Fast', url: `${receiver.url}/fast` });
    const session = await oneSession(connectUrl(key));
    const endedAt = performance.now();
    const [first] = await receiver.waitFor(1, (r) => r.path === '/hang');
    const [fast] = await receiver.waitFor(1, (r) => r.path === '/fast');
    assert.ok(fast!.at - endedAt < 3_000, `the other webhook was delivered ${Math.round(fast!.at - endedAt)} ms after the session ended`);
    assert.ok(fast!.at - first!.at < ATTEMPT_TIMEOUT_MS, 'the other webhook did not wait for the hanging attempt to time out');

    // While the attempt hangs, the proxy opens sessions as quickly as ever.
    const opened = performance.now();
    assert.ok(opened - first!.at < ATTEMPT_TIMEOUT_MS, 'the session is opened while the attempt hangs');
    const other = await expectOpened(connectUrl(key));
    await cdp(other.ws, 'Browser.getVersion');
    assert.ok(performance.now() - opened < 3_000, `a session took ${Math.round(performance.now() - opened)} ms to open`);
    other.ws.close();
    await other.closed;

    const [, second] = await receiver.waitFor(2, (r) => r.path === '/hang' && r.body?.data?.sessionId === session.id, 15_000);
    // The timeout runs from the attempt's start, a little before the request reached the receiver.
    const gap = second!.at - first!.at;
    const expected = ATTEMPT_TIMEOUT_MS + DELAYS[0]!;
    assert.ok(
      gap >= expected - 300 && gap <= expected + LATE_MS,
      `second attempt ${Math.round(gap)} ms after the first (${ATTEMPT_TIMEOUT_MS} ms timeout + ${DELAYS[0]} ms)`,
    );
    assert.equal(second!.headers['x-webhook-delivery-id'], first!.headers['x-webhook-delivery-id']);
    const log = await eventually(
      async () => {
        const l = expectOk(await call('GET', `/v1/webhooks/${hang.id}/deliveries`, { auth: { token: user.token } }));
        return l.items.filter((a: any) => a.deliveryId === first!.headers['x-webhook-delivery-id']).length === 2 ? l : null;
      },
      5_000,
      'both attempts logged',
    );
    const attempts = log.items.filter((a: any) => a.deliveryId === first!.headers['x-webhook-delivery-id']);
    const timedOut = attempts.find((a: any) => a.attempt === 1);
    assert.equal(timedOut.error, `no answer within ${inWords(ATTEMPT_TIMEOUT_MS)}`);
    assert.equal(timedOut.statusCode, null);
    assert.ok(
      timedOut.durationMs >= ATTEMPT_TIMEOUT_MS - 100 && timedOut.durationMs < ATTEMPT_TIMEOUT_MS + SLACK_MS,
      `timed out after ${timedOut.durationMs} ms`,
    );
    const retried = attempts.find((a: any) => a.attempt === 2);
    assert.equal(retried.statusCode, 200);
    const waited = Date.parse(retried.attemptedAt) - (Date.parse(timedOut.attemptedAt) + timedOut.durationMs);
    assert.ok(waited >= DELAYS[0]! - 10 && waited <= DELAYS[0]! + LATE_MS, `retried ${waited} ms after the timeout`);
  } finally {
    await receiver.close();
  }
});

test('a receiver that is down and then comes up gets the delivery on a retry', async () => {
  const { freePort } = await import('../../scripts/lib/ports');
  const port = await freePort();
  const { user, key } = await userWithProvider('whdown');
  const hook = await createWebhook(user, { label: 'Later', url: `http://127.0.0.1:${port}/later?key=k` });
  const session = await oneSession(connectUrl(key));
  const [delivery] = await deliveriesOf(session.id);
  const { db } = await import('../../lib/db');
  // Two refused attempts (at once and after the first delay); the third comes the second delay later.
  assert.ok(DELAYS.length >= 2, 'the schedule retries after two refused attempts');
  await eventually(async () => (await db.webhookAttempt.count({ where: { deliveryId: delivery!.id } })) >= 2, 5_000, 'two failed attempts');
  const receiver = await startReceiver({ port });
  try {
    const [got] = await receiver.waitFor(1, () => true, 12_000);
    assert.equal(got!.headers['x-webhook-delivery-id'], delivery!.id);
    await eventually(async () => (await deliveryStatus(delivery!.id)) === 'delivered', 5_000, 'delivered');
    const attempts = await db.webhookAttempt.findMany({ where: { deliveryId: delivery!.id }, orderBy: { attempt: 'asc' } });
    assert.deepEqual(
      attempts.slice(0, 2).map((a) => a.error),
      ['connection refused', 'connection refused'],
    );
    assert.equal(attempts.at(-1)!.statusCode, 200);
    assert.equal(got!.headers['x-webhook-attempt'], String(attempts.at(-1)!.attempt));
    assert.equal(receiver.received.length, 1);
    const now = expectOk(await call('GET', `/v1/webhooks/${hook.id}`, { auth: { token: user.token } }));
    assert.equal(now.lastFailureReason, 'connection refused');
    assert.ok(now.lastDeliveredAt > now.lastFailureAt);
  } finally {
    await receiver.close();
  }
});
