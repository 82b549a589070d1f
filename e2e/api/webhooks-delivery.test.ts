// Session events through the real proxy and its delivery worker to a real receiver: the exact
// body and headers, session.error, router and event filters, the Webhooks switch, crash settlement.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectOk, newUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { connectUrl, eventually, expectOpened, routerKey } from '../support/connect';
import { addProvider } from '../support/providers';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { createWebhook, deliveriesOf, endedSession, oneSession, SOURCE } from '../support/webhooks';
import { seedSession } from '../support/seed-sessions';

let browser: Chromium;
let receiver: Receiver;
before(async () => {
  [browser, receiver] = await Promise.all([launchChromium(), startReceiver()]);
});
after(async () => {
  await Promise.all([browser?.stop(), receiver?.close()]);
});

test('a session through the proxy sends session.ended with the body of docs/api.md and a stable delivery id', async () => {
  const user = await newUser('whs');
  await addProvider(user.workspaceId, user.routerId, { slug: 'local-a', url: browser.wsUrl });
  const path = `/ended-${user.userId}?token=receiver-secret`;
  const hook = await createWebhook(user, { label: 'Sessions', url: `${receiver.url}${path}` });
  const row = await oneSession(connectUrl(await routerKey(user.workspaceId, user.routerId)));

  const [got] = await receiver.waitFor(1, (r) => r.path === path);
  const session = expectOk(await call('GET', `/v1/sessions/${row.id}`, { auth: { token: user.token } }));
  assert.equal(got!.raw, JSON.stringify(got!.body), 'compact JSON');
  assert.deepEqual(Object.keys(got!.body), ['version', 'timestamp', 'event', 'status', 'source', 'data']);
  assert.deepEqual(Object.keys(got!.body.data), ['sessionId', 'providerSlug', 'durationMs', 'bytesIn', 'bytesOut', 'billedCents', 'errored']);
  assert.deepEqual(got!.body, {
    version: '1',
    timestamp: session.endedAt,
    event: 'session.ended',
    status: 'resolved',
    source: SOURCE,
    data: {
      sessionId: row.id,
      providerSlug: 'local-a',
      durationMs: session.durationMs,
      bytesIn: session.bytesIn,
      bytesOut: session.bytesOut,
      billedCents: session.billedCents,
      errored: false,
    },
  });
  assert.ok(session.bytesIn > 0 && session.bytesOut > 0);

  const [delivery] = await deliveriesOf(row.id);
  assert.equal(got!.headers['x-webhook-delivery-id'], delivery!.id);
  assert.equal(got!.headers['x-webhook-event'], 'session.ended');
  assert.equal(got!.headers['x-webhook-id'], hook.id);
  assert.equal(got!.headers['x-webhook-attempt'], '1');
  assert.equal(got!.headers['content-type'], 'application/json');
  assert.equal(got!.headers['user-agent'], 'browser-router-webhooks/1');

  const log = await eventually(
    async () => {
      const l = expectOk(await call('GET', `/v1/webhooks/${hook.id}/deliveries`, { auth: { token: user.token } }));
      return l.items.length > 0 ? l : null;
    },
    5_000,
    'the attempt in the delivery log',
  );
  assert.deepEqual(
    {
      event: log.items[0].event,
      statusCode: log.items[0].statusCode,
      ok: log.items[0].ok,
      deliveryStatus: log.items[0].deliveryStatus,
      deliveryId: log.items[0].deliveryId,
    },
    { event: 'session.ended', statusCode: 200, ok: true, deliveryStatus: 'delivered', deliveryId: delivery!.id },
  );
  assert.ok(expectOk(await call('GET', `/v1/webhooks/${hook.id}`, { auth: { token: user.token } })).lastDeliveredAt);
  assert.equal(receiver.on(path).length, 1, 'delivered once');
});

test('a session whose provider dies sends session.error (firing, errorReason) only to webhooks that want it', async () => {
  const doomed = await launchChromium();
  try {
    const user = await newUser('whe');
    await addProvider(user.workspaceId, user.routerId, { slug: 'doomed', url: doomed.wsUrl });
    const errors = await createWebhook(user, { label: 'Errors', url: `${receiver.url}/errors-${user.userId}`, events: ['session.error'] });
    const ended = await createWebhook(user, { label: 'Ended', url: `${receiver.url}/ended-only-${user.userId}`, events: ['session.ended', 'credit.low'] });
    const opened = await expectOpened(connectUrl(await routerKey(user.workspaceId, user.routerId)));
    await doomed.stop();
    const row = await endedSession(opened.sessionId);
    assert.equal(row.state, 'errored');

    const [got] = await receiver.waitFor(1, (r) => r.path === `/errors-${user.userId}`);
    assert.deepEqual(got!.body, {
      version: '1',
      timestamp: row.endedAt!.toISOString(),
      event: 'session.error',
      status: 'firing',
      source: SOURCE,
      data: {
        sessionId: row.id,
        providerSlug: 'doomed',
        durationMs: row.durationMs,
        bytesIn: Number(row.bytesIn),
        bytesOut: Number(row.bytesOut),
        billedCents: 0,
        errored: true,
        errorReason: row.errorReason,
      },
    });
    assert.match(row.errorReason!, /provider/);
    assert.equal(got!.headers['x-webhook-event'], 'session.error');
    assert.deepEqual(
      (await deliveriesOf(row.id)).map((d) => d.webhookId),
      [errors.id],
      `nothing for ${ended.id}`,
    );
  } finally {
    await doomed.stop();
  }
});

test("router filter, event filter and inactive webhooks; nothing at all while the router's Webhooks switch is off", async () => {
  const user = await newUser('whf');
  const auth = { token: user.token };
  const second = expectOk(await call('POST', '/v1/routers', { auth, body: { name: 'Second' } }), 201);
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browser.wsUrl });
  await addProvider(user.workspaceId, second.id, { slug: 'b', url: browser.wsUrl });
  const hooks = {
    all: await createWebhook(user, { label: 'All', url: `${receiver.url}/f-all-${user.userId}` }),
    first: await createWebhook(user, { label: 'First only', url: `${receiver.url}/f-first-${user.userId}`, routerInstanceId: user.routerId }),
    second: await createWebhook(user, { label: 'Second only', url: `${receiver.url}/f-second-${user.userId}`, routerInstanceId: second.id }),
    errorsOnly: await createWebhook(user, { label: 'Errors', url: `${receiver.url}/f-err-${user.userId}`, events: ['session.error'] }),
    off: await createWebhook(user, { label: 'Off', url: `${receiver.url}/f-off-${user.userId}` }),
  };
  expectOk(await call('PATCH', `/v1/webhooks/${hooks.off.id}`, { auth, body: { active: false } }));

  const onSecond = await oneSession(connectUrl(second.apiKey.plaintextKey));
  // The events are written with the session's end, so the outbox is complete once the end is.
  assert.deepEqual((await deliveriesOf(onSecond.id)).map((d) => d.webhookId).sort(), [hooks.all.id, hooks.second.id].sort());
  await receiver.waitFor(1, (r) => r.path === `/f-second-${user.userId}`);
  await receiver.waitFor(1, (r) => r.path === `/f-all-${user.userId}` && r.body?.data?.sessionId === onSecond.id);

  expectOk(await call('PATCH', `/v1/routers/${user.routerId}/settings`, { auth, body: { webhooksEnabled: false } }));
  const switchedOff = await oneSession(connectUrl(await routerKey(user.workspaceId, user.routerId)));
  assert.deepEqual(await deliveriesOf(switchedOff.id), [], 'switch off: no delivery for any webhook');

  expectOk(await call('PATCH', `/v1/routers/${user.routerId}/settings`, { auth, body: { webhooksEnabled: true } }));
  const switchedOn = await oneSession(connectUrl(await routerKey(user.workspaceId, user.routerId)));
  assert.deepEqual((await deliveriesOf(switchedOn.id)).map((d) => d.webhookId).sort(), [hooks.all.id, hooks.first.id].sort());
  await receiver.waitFor(1, (r) => r.path === `/f-first-${user.userId}`);
  await receiver.waitFor(1, (r) => r.path === `/f-all-${user.userId}` && r.body?.data?.sessionId === switchedOn.id);

  assert.equal(receiver.received.filter((r) => r.body?.data?.sessionId === switchedOff.id).length, 0);
  for (const quiet of ['f-err', 'f-off']) assert.equal(receiver.on(`/${quiet}-${user.userId}`).length, 0, quiet);
  assert.equal(receiver.on(`/f-all-${user.userId}`).length, 2);
});

test('sessions a crashed proxy left active are settled with session.error; playground sessions send nothing', async () => {
  const user = await newUser('who');
  const hook = await createWebhook(user, { label: 'Crash', url: `${receiver.url}/orphans-${user.userId}` });
  const { db } = await import('../../lib/db');
  const { freePort } = await import('../../scripts/lib/ports');
  const { startProxy } = await import('../../proxy/server');
  const port = await freePort();
  const instance = `wh-orphans-${port}`;
  const base = { proxyInstanceId: instance, startedAt: new Date(Date.now() - 3_000) };
  const orphan = await seedSession(user.workspaceId, user.routerId, base);
  const playground = await seedSession(user.workspaceId, user.routerId, { ...base, playground: true });
  // This proxy delivers nothing itself; the stack's worker does.
  const proxy = await startProxy({ port, host: '127.0.0.1', proxyInstanceId: instance, shutdownDrainMs: 100, webhooks: false, jobs: false });
  await proxy.stop();

  assert.equal((await db.sessionLog.findUniqueOrThrow({ where: { id: playground.id } })).state, 'errored');
  assert.deepEqual(await deliveriesOf(playground.id), []);
  assert.deepEqual(
    (await deliveriesOf(orphan.id)).map((d) => [d.webhookId, d.event]),
    [[hook.id, 'session.error']],
  );
  const [got] = await receiver.waitFor(1, (r) => r.path === `/orphans-${user.userId}`);
  assert.equal(got!.body.data.sessionId, orphan.id);
  assert.equal(got!.body.data.errorReason, 'the proxy restarted while the session ran');
  assert.ok(got!.body.data.durationMs >= 3_000);
});
