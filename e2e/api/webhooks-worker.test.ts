// The delivery worker run in this process on a queue of its own with a short schedule: a worker
// stopped between retries, a worker that dies holding a claim, several workers on one queue, a
// slow receiver among fast ones, and a webhook switched off mid-retry. The proxy's worker serves
// the `cloud` queue only, so it never touches these rows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { call, expectOk, newUser, type TestUser } from '../support/api';
import { eventually } from '../support/connect';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { createWebhook, deliveryStatus } from '../support/webhooks';
import { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from '../../proxy/webhooks/delivery-worker';
import type { RetrySchedule } from '../../lib/webhooks/schedule';

// Short delays; attempts get time enough on a loaded machine (the receiver answers at once unless told to hang).
const SHORT: RetrySchedule = { attemptTimeoutMs: 10_000, retryDelaysMs: [300, 600, 1_200] };

let receiver: Receiver;
const answers = new Map<string, (nth: number) => number | 'hang'>();
before(async () => {
  receiver = await startReceiver({ answer: (r, nth) => answers.get(r.path.split('?')[0]!)?.(nth) ?? 200 });
});
after(async () => {
  await receiver?.close();
});

const workers: WebhookWorker[] = [];
// A live worker's lease must outlast an attempt and its bookkeeping, as in production (attempt
// timeout + 25 s): with 2 s a loaded machine's settle came after the lease ran out and another
// worker sent the delivery again. The tests of dead claims make their claims with short leases.
function worker(queue: string, options: WebhookWorkerOptions = {}): WebhookWorker {
  const w = startWebhookWorker({ queue, schedule: SHORT, leaseMs: 30_000, pollMs: 100, ...options });
  workers.push(w);
  return w;
}
after(async () => {
  await Promise.all(workers.map((w) => w.stop()));
});

const newQueue = () => `test-${randomBytes(4).toString('hex')}`;

/** Writes `count` deliveries for the webhook into `queue`, as an event's transaction would. */
async function enqueue(user: TestUser, webhookId: string, queue: string, count = 1): Promise<string[]> {
  const { db } = await import('../../lib/db');
  const { enqueueDeliveries } = await import('../../lib/webhooks/outbox');
  const { buildPayload } = await import('../../lib/webhooks/payload');
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const payload = buildPayload({ event: 'session.ended', status: 'resolved', source: 'test/cloud', at: new Date(), data: { n: i } });
    ids.push(...(await db.$transaction((tx) => enqueueDeliveries(tx, { queue, workspaceId: user.workspaceId, webhookIds: [webhookId], payload }))));
  }
  return ids;
}

async function attemptsOf(deliveryId: string) {
  const { db } = await import('../../lib/db');
  return db.webhookAttempt.findMany({ where: { deliveryId }, orderBy: { attempt: 'asc' } });
}

test('a worker stopped between retries and a new one started: every attempt happens once, at the schedule', async () => {
  const user = await newUser('wwstop');
  const path = `/stop-${user.userId}`;
  answers.set(path, (nth) => (nth <= 2 ? 500 : 200));
  const hook = await createWebhook(user, { label: 'Restart', url: `${receiver.url}${path}` });
  const queue = newQueue();
  const [id] = await enqueue(user, hook.id, queue);
  // The first retry waits long enough for the stop to come before it.
  const schedule = { attemptTimeoutMs: 10_000, retryDelaysMs: [2_000, 300] };
  const first = worker(queue, { schedule });
  await receiver.waitFor(1, (r) => r.path === path);
  await eventually(async () => (await attemptsOf(id!)).length === 1, 5_000, 'the first attempt recorded');
  await first.stop();
  assert.equal(receiver.on(path).length, 1, 'the stopped worker sent nothing more');
  assert.equal(await deliveryStatus(id!), 'pending', 'the retry is still owed');

  worker(queue, { schedule });
  await eventually(async () => (await deliveryStatus(id!)) === 'delivered', 10_000, 'delivered by the new worker');
  const requests = receiver.on(path);
  assert.deepEqual(
    requests.map((r) => r.headers['x-webhook-attempt']),
    ['1', '2', '3'],
  );
  assert.deepEqual(new Set(requests.map((r) => r.headers['x-webhook-delivery-id'])), new Set([id]));
  assert.deepEqual(
    (await attemptsOf(id!)).map((a) => [a.attempt, a.statusCode]),
    [
      [1, 500],
      [2, 500],
      [3, 200],
    ],
  );
  assert.ok(requests[1]!.at - requests[0]!.at >= 2_000, "the new worker kept the first retry's 2 s");
  assert.ok(requests[2]!.at - requests[1]!.at >= 300, "and the second retry's 0.3 s");
});

test('a worker that dies holding a claim: the delivery comes back when the lease runs out, and is delivered once', async () => {
  const user = await newUser('wwcrash');
  const path = `/crash-${user.userId}`;
  const hook = await createWebhook(user, { label: 'Crash', url: `${receiver.url}${path}` });
  const queue = newQueue();
  const [id] = await enqueue(user, hook.id, queue);
  const { claimDueDeliveries } = await import('../../lib/webhooks/outbox');
  // What a worker does before it dies: claim (lease 1.5 s), then nothing is ever settled.
  const claimedAt = performance.now();
  const [claimed] = await claimDueDeliveries({ queue, workerId: 'doomed', limit: 10, leaseMs: 1_500, perWebhook: 2, excludeWebhookIds: [] });
  assert.equal(claimed!.id, id);

  const survivor = worker(queue);
  assert.deepEqual(
    await claimDueDeliveries({ queue, workerId: 'other', limit: 10, leaseMs: 1_500, perWebhook: 2, excludeWebhookIds: [] }),
    [],
    "claimed rows are nobody else's",
  );
  const [got] = await receiver.waitFor(1, (r) => r.path === path, 10_000);
  assert.ok(got!.at - claimedAt >= 1_500 - 10, `sent ${Math.round(got!.at - claimedAt)} ms after the dead claim`);
  await eventually(async () => (await deliveryStatus(id!)) === 'delivered', 5_000, 'delivered');
  assert.equal(receiver.on(path).length, 1);
  assert.equal(got!.headers['x-webhook-delivery-id'], id);
  assert.equal(survivor.inFlight, 0);
});

test('three workers on one queue: every delivery is sent exactly once', async () => {
  const user = await newUser('wwmany');
  const queue = newQueue();
  const hooks = await Promise.all([0, 1, 2, 3].map((n) => createWebhook(user, { label: `Many ${n}`, url: `${receiver.url}/many-${user.userId}-${n}` })));
  const ids = (await Promise.all(hooks.map((h) => enqueue(user, h.id, queue, 10)))).flat();
  // An attempt that times out is sent again by the schedule, rightly: the attempts get time enough
  // on a loaded machine (a 1 s timeout there sent one delivery twice), so two sends can only mean
  // two workers took one delivery.
  [1, 2, 3].forEach(() => worker(queue, { concurrency: 4, schedule: { attemptTimeoutMs: 10_000, retryDelaysMs: [300] } }));
  await receiver.waitFor(ids.length, (r) => r.path.startsWith(`/many-${user.userId}-`), 20_000);
  await eventually(
    async () => {
      const { db } = await import('../../lib/db');
      return (await db.webhookDelivery.count({ where: { id: { in: ids }, status: 'delivered' } })) === ids.length;
    },
    5_000,
    'all delivered',
  );
  const seen = receiver.received.filter((r) => r.path.startsWith(`/many-${user.userId}-`)).map((r) => String(r.headers['x-webhook-delivery-id']));
  assert.equal(seen.length, ids.length, 'no delivery sent twice');
  assert.deepEqual(new Set(seen), new Set(ids));
  const { db } = await import('../../lib/db');
  assert.equal(await db.webhookAttempt.count({ where: { deliveryId: { in: ids } } }), ids.length, 'one attempt recorded for each');
});

test('a hanging receiver occupies at most its share of a worker: the others are delivered meanwhile', async () => {
  const user = await newUser('wwslow');
  const slowPath = `/slow-${user.userId}`;
  const fastPath = `/fast-${user.userId}`;
  answers.set(slowPath, () => 'hang');
  const slow = await createWebhook(user, { label: 'Slow', url: `${receiver.url}${slowPath}` });
  const fast = await createWebhook(user, { label: 'Fast', url: `${receiver.url}${fastPath}` });
  const queue = newQueue();
  // The slow receiver's deliveries are older, so they are first in line.
  const slowIds = await enqueue(user, slow.id, queue, 4);
  await enqueue(user, fast.id, queue, 3);
  // One slot each: without the per-webhook cap both slots would wait on the slow receiver first.
  // The slow receiver answers nothing while the test runs, and its attempt's timeout is far beyond
  // it: the first slow attempt holds its slot throughout (the receiver's close ends it).
  worker(queue, { concurrency: 2, perWebhook: 1, leaseMs: 60_000, schedule: { attemptTimeoutMs: 30_000, retryDelaysMs: [] } });
  await receiver.waitFor(3, (r) => r.path === fastPath, 15_000);
  await receiver.waitFor(1, (r) => r.path === slowPath, 15_000);
  // The fast receiver got all of its own while that first slow attempt was still open.
  const { db } = await import('../../lib/db');
  assert.equal(await db.webhookAttempt.count({ where: { deliveryId: { in: slowIds } } }), 0, 'the slow attempt had not ended');
  assert.equal(receiver.on(slowPath).length, 1, 'one slow attempt at a time');
});

test('switching a webhook off cancels what waits for a retry', async () => {
  const user = await newUser('wwoff');
  const path = `/off-${user.userId}`;
  answers.set(path, () => 500);
  const hook = await createWebhook(user, { label: 'Off', url: `${receiver.url}${path}` });
  const queue = newQueue();
  const [id] = await enqueue(user, hook.id, queue);
  const w = worker(queue, { schedule: { attemptTimeoutMs: 10_000, retryDelaysMs: [60_000] } });
  await eventually(async () => (await attemptsOf(id!)).length === 1, 5_000, 'the first attempt recorded');
  expectOk(await call('PATCH', `/v1/webhooks/${hook.id}`, { auth: { token: user.token }, body: { active: false } }));
  assert.equal(await deliveryStatus(id!), 'cancelled');
  await w.stop();
  assert.equal(receiver.on(path).length, 1);
});

test('every retry a worker owes comes at its own time, not at the fallback poll (two retries pending at once)', async () => {
  const user = await newUser('wwwake');
  const quickPath = `/quick-${user.userId}`;
  const slowPath = `/slowfail-${user.userId}`;
  // The quick one fails at once; the slow one hangs to its 1 s timeout, so its retry is owed later.
  answers.set(quickPath, (nth) => (nth === 1 ? 500 : 200));
  answers.set(slowPath, (nth) => (nth === 1 ? 'hang' : 200));
  const quick = await createWebhook(user, { label: 'Quick', url: `${receiver.url}${quickPath}` });
  const slow = await createWebhook(user, { label: 'Slow', url: `${receiver.url}${slowPath}` });
  const queue = newQueue();
  const delay = 1_500;
  // A poll far beyond the test's deadlines: only the worker's own wake-ups can send the retries.
  worker(queue, { schedule: { attemptTimeoutMs: 1_000, retryDelaysMs: [delay] }, pollMs: 120_000 });
  const [quickId] = await enqueue(user, quick.id, queue);
  const [slowId] = await enqueue(user, slow.id, queue);

  const quickOnes = await receiver.waitFor(2, (r) => r.path === quickPath, 15_000);
  const slowOnes = await receiver.waitFor(2, (r) => r.path === slowPath, 15_000);
  // Each delay runs from the end of the failed attempt as the worker logged it (the slow one's
  // timeout began when the worker sent it, before the receiver saw it), to the retry's arrival.
  const { db } = await import('../../lib/db');
  const failedAt = async (deliveryId: string) => {
    const first = await db.webhookAttempt.findFirstOrThrow({ where: { deliveryId, attempt: 1 } });
    return first.attemptedAt.getTime() + first.durationMs;
  };
  const arrivedAt = (r: { at: number }) => performance.timeOrigin + r.at;
  const quickGap = arrivedAt(quickOnes[1]!) - (await failedAt(quickId!));
  const slowGap = arrivedAt(slowOnes[1]!) - (await failedAt(slowId!));
  // Never early; and long before the 120 s poll (the bound leaves room for a loaded machine, where
  // claiming and sending the retry took 1.7 s more).
  for (const [name, gap] of [
    ['quick', quickGap],
    ['slow', slowGap],
  ] as const) {
    assert.ok(gap >= delay - 10 && gap <= delay + 10_000, `the ${name} webhook's retry came ${Math.round(gap)} ms after its failure, expected ${delay} ms`);
  }
  await eventually(async () => (await deliveryStatus(quickId!)) === 'delivered' && (await deliveryStatus(slowId!)) === 'delivered', 5_000, 'both delivered');
});
