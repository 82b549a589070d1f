// Webhook management (docs/api.md, Webhooks): the resource, defaults, masking, validation, roles,
// cross-workspace isolation, the test event against a real receiver, the delivery log.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { addMember, call, expectError, expectOk, newUser, signIn } from '../support/api';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

const webhookFields = [
  'active',
  'createdAt',
  'events',
  'id',
  'label',
  'lastDeliveredAt',
  'lastFailureAt',
  'lastFailureReason',
  'routerInstanceId',
  'updatedAt',
  'url',
  'workspaceId',
];
const SOURCE = `${process.env.GATEWAY_NAME?.trim() || 'browser-router'}/cloud`;

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver({ answer: (r) => (r.path.startsWith('/fail') ? 500 : 200) });
});
after(async () => {
  await receiver?.close();
});

test('create, list, get, update, delete; defaults; the URL is masked in every response and encrypted at rest', async () => {
  const user = await newUser('wh');
  const auth = { token: user.token };
  const secretUrl = 'https://hooks.example.test/in/ops?token=tok-SECRET-1&team=ops&apiKey=ak-SECRET-2';
  const created = expectOk(await call('POST', '/v1/webhooks', { auth, body: { label: 'Ops', url: secretUrl } }), 201);
  assert.deepEqual(Object.keys(created).sort(), webhookFields);
  assert.equal(created.url, 'https://hooks.example.test/in/ops?token=***&team=***&apiKey=***', 'every query value is masked');
  assert.deepEqual(created.events, [], 'omitted events = every event');
  assert.equal(created.routerInstanceId, null);
  assert.equal(created.active, true);
  assert.equal(created.workspaceId, user.workspaceId);
  assert.deepEqual([created.lastDeliveredAt, created.lastFailureAt, created.lastFailureReason], [null, null, null]);

  const scoped = expectOk(
    await call('POST', '/v1/webhooks', {
      auth,
      body: { label: 'Errors', url: 'http://127.0.0.1:9/x?secret=s3', events: ['session.error', 'credit.low'], routerInstanceId: user.routerId },
    }),
    201,
  );
  assert.equal(scoped.routerInstanceId, user.routerId);
  assert.deepEqual(scoped.events, ['session.error', 'credit.low']);
  assert.equal(scoped.url, 'http://127.0.0.1:9/x?secret=***');

  const list = expectOk(await call('GET', '/v1/webhooks', { auth }));
  assert.deepEqual({ total: list.total, page: list.page, pageSize: list.pageSize }, { total: 2, page: 1, pageSize: 25 });
  assert.deepEqual(
    list.items.map((w: any) => w.id),
    [scoped.id, created.id],
    'newest first',
  );
  const paged = expectOk(await call('GET', '/v1/webhooks?page=2&pageSize=1', { auth }));
  assert.deepEqual(
    { ids: paged.items.map((w: any) => w.id), total: paged.total, page: paged.page, pageSize: paged.pageSize },
    { ids: [created.id], total: 2, page: 2, pageSize: 1 },
  );
  assert.deepEqual(expectOk(await call('GET', `/v1/webhooks/${created.id}`, { auth })), created);

  const patched = expectOk(
    await call('PATCH', `/v1/webhooks/${created.id}`, {
      auth,
      body: { label: 'Ops (EU)', events: ['session.ended'], active: false, url: 'https://hooks.example.test/v2?password=pw-SECRET-3' },
    }),
  );
  assert.deepEqual(
    { label: patched.label, events: patched.events, active: patched.active, url: patched.url, routerInstanceId: patched.routerInstanceId },
    { label: 'Ops (EU)', events: ['session.ended'], active: false, url: 'https://hooks.example.test/v2?password=***', routerInstanceId: null },
  );
  const routed = expectOk(await call('PATCH', `/v1/webhooks/${created.id}`, { auth, body: { routerInstanceId: user.routerId, events: [] } }));
  assert.deepEqual(
    { routerInstanceId: routed.routerInstanceId, events: routed.events, label: routed.label },
    { routerInstanceId: user.routerId, events: [], label: 'Ops (EU)' },
  );
  assert.equal(expectOk(await call('PATCH', `/v1/webhooks/${created.id}`, { auth, body: { routerInstanceId: null } })).routerInstanceId, null);

  // No response anywhere carries a secret; the row holds ciphertext only.
  const everything = JSON.stringify([created, scoped, list, patched, expectOk(await call('GET', '/v1/webhooks', { auth }))]);
  for (const secret of ['tok-SECRET-1', 'ak-SECRET-2', 'pw-SECRET-3', 's3&']) assert.ok(!everything.includes(secret), secret);
  const { db } = await import('../../lib/db');
  const row = await db.webhook.findUniqueOrThrow({ where: { id: created.id } });
  assert.ok(!JSON.stringify(row).includes('pw-SECRET-3'));
  const { decryptText } = await import('../../lib/crypto/encryption');
  assert.equal(decryptText(row.urlEncrypted), 'https://hooks.example.test/v2?password=pw-SECRET-3');

  assert.deepEqual(expectOk(await call('DELETE', `/v1/webhooks/${created.id}`, { auth })), { id: created.id });
  expectError(await call('GET', `/v1/webhooks/${created.id}`, { auth }), 404, 'not_found');
  expectError(await call('DELETE', `/v1/webhooks/${created.id}`, { auth }), 404, 'not_found');
  assert.equal(expectOk(await call('GET', '/v1/webhooks', { auth })).total, 1);
});

test('validation names the field: label, url (http/https only), unknown event names, routers of other workspaces', async () => {
  const user = await newUser('whv');
  const other = await newUser('whv2');
  const auth = { token: user.token };
  const cases: Array<[unknown, string]> = [
    [{ url: 'https://x.test' }, 'label'],
    [{ label: 'x' }, 'url'],
    [{ label: '  ', url: 'https://x.test' }, 'label'],
    [{ label: 'x', url: 'ftp://x.test/h' }, 'url'],
    [{ label: 'x', url: 'ws://x.test/h' }, 'url'],
    [{ label: 'x', url: 'not a url' }, 'url'],
    [{ label: 'x', url: `https://x.test/${'a'.repeat(2100)}` }, 'url'],
    [{ label: 'x', url: 'https://x.test', events: ['session.ended', 'session.exploded'] }, 'events.1'],
    [{ label: 'x', url: 'https://x.test', events: 'session.ended' }, 'events'],
    [{ label: 'x', url: 'https://x.test', routerInstanceId: other.routerId }, 'routerInstanceId'],
    [{ label: 'x', url: 'https://x.test', routerInstanceId: 'nope' }, 'routerInstanceId'],
    [{ label: 'x', url: 'https://x.test', secret: 'x' }, 'secret'], // "secret: not a field of this request"
  ];
  for (const [body, field] of cases) {
    const res = await call('POST', '/v1/webhooks', { auth, body });
    expectError(res, 400, 'validation_error');
    assert.match(
      res.body.error.message,
      new RegExp(`^${field.replace('.', '\\.')}:|; ${field.replace('.', '\\.')}:`),
      `${JSON.stringify(body).slice(0, 80)} → ${res.body.error.message}`,
    );
  }
  const unknown = await call('POST', '/v1/webhooks', { auth, body: { label: 'x', url: 'https://x.test', events: ['session.exploded'] } });
  assert.match(unknown.body.error.message, /events\.0: unknown event "session\.exploded"/);

  // Every accepted name, including those never sent.
  const all = [
    'session.ended',
    'session.error',
    'session.started',
    'provider.up',
    'provider.down',
    'provider.cooldown',
    'credit.low',
    'credit.exhausted',
    'workspace.suspended',
  ];
  const created = expectOk(await call('POST', '/v1/webhooks', { auth, body: { label: 'All', url: 'https://x.test/h', events: all } }), 201);
  assert.deepEqual(created.events, all);
  for (const [body, field] of [
    [{ active: 'yes' }, 'active'],
    [{ url: 'mailto:a@b.c' }, 'url'],
    [{ events: ['queue.timeout'] }, 'events.0'],
    [{ routerInstanceId: other.routerId }, 'routerInstanceId'],
    [{ label: '' }, 'label'],
  ] as const) {
    const res = await call('PATCH', `/v1/webhooks/${created.id}`, { auth, body });
    expectError(res, 400, 'validation_error');
    assert.ok(res.body.error.message.startsWith(`${field}:`), res.body.error.message);
  }
  expectError(await call('GET', '/v1/webhooks?pageSize=101', { auth }), 400, 'validation_error');
  expectError(await call('GET', '/v1/webhooks?page=0', { auth }), 400, 'validation_error');
});

test('roles: members read, only owners and admins change or test; other workspaces are not_found; 401; counted', async () => {
  const owner = await newUser('whr');
  const admin = await newUser('whra');
  const member = await newUser('whrm');
  const stranger = await newUser('whrs');
  await addMember(owner.workspaceId, admin.userId, 'admin');
  await addMember(owner.workspaceId, member.userId, 'member');
  const ws = { 'x-workspace-id': owner.workspaceId };
  const hook = expectOk(await call('POST', '/v1/webhooks', { auth: { token: owner.token }, body: { label: 'Owner hook', url: `${receiver.url}/roles` } }), 201);

  const asMember = { auth: { token: member.token }, headers: ws };
  assert.equal(expectOk(await call('GET', '/v1/webhooks', asMember)).total, 1);
  assert.equal(expectOk(await call('GET', `/v1/webhooks/${hook.id}`, asMember)).id, hook.id);
  expectOk(await call('GET', `/v1/webhooks/${hook.id}/deliveries`, asMember));
  expectError(await call('POST', '/v1/webhooks', { ...asMember, body: { label: 'm', url: 'https://x.test' } }), 403, 'forbidden');
  expectError(await call('PATCH', `/v1/webhooks/${hook.id}`, { ...asMember, body: { label: 'm' } }), 403, 'forbidden');
  expectError(await call('DELETE', `/v1/webhooks/${hook.id}`, asMember), 403, 'forbidden');
  expectError(await call('POST', `/v1/webhooks/${hook.id}/test`, asMember), 403, 'forbidden');
  assert.equal(receiver.on('/roles').length, 0, 'a refused test sends nothing');

  const asAdmin = { auth: { token: admin.token }, headers: ws };
  assert.equal(expectOk(await call('PATCH', `/v1/webhooks/${hook.id}`, { ...asAdmin, body: { label: 'Admin renamed' } })).label, 'Admin renamed');
  const adminHook = expectOk(await call('POST', '/v1/webhooks', { ...asAdmin, body: { label: 'Admin hook', url: 'https://x.test/a' } }), 201);
  expectOk(await call('DELETE', `/v1/webhooks/${adminHook.id}`, asAdmin));

  // The same ids from another workspace: not found, as if they did not exist.
  const asStranger = { auth: { token: stranger.token } };
  for (const [method, path] of [
    ['GET', ''],
    ['PATCH', ''],
    ['DELETE', ''],
    ['POST', '/test'],
    ['GET', '/deliveries'],
  ] as const) {
    expectError(
      await call(method, `/v1/webhooks/${hook.id}${path}`, { ...asStranger, body: method === 'PATCH' ? { label: 'x' } : undefined }),
      404,
      'not_found',
    );
  }
  assert.equal(expectOk(await call('GET', '/v1/webhooks', asStranger)).total, 0);
  expectError(await call('GET', '/v1/webhooks', { auth: { token: stranger.token }, headers: ws }), 403, 'not_a_member');
  expectError(await call('GET', '/v1/webhooks'), 401, 'unauthenticated');
  expectError(await call('POST', `/v1/webhooks/${hook.id}/test`), 401, 'unauthenticated');

  // The webhooks group counts against the daily bearer cap; dashboard calls do not.
  const counted = await call('GET', '/v1/webhooks', { auth: { token: owner.token } });
  assert.ok(Number(counted.headers.get('x-ratelimit-limit')) > 0);
  assert.ok(counted.headers.get('x-ratelimit-remaining'));
  const cookie = await signIn(owner.email);
  const viaCookie = await call('GET', '/v1/webhooks', { auth: cookie });
  assert.equal(viaCookie.status, 200);
  assert.equal(viaCookie.headers.get('x-ratelimit-limit'), null);
});

test('test: one webhook.test POST to the real receiver, no retries; the result, the delivery log and the last-* fields', async () => {
  const user = await newUser('wht');
  const auth = { token: user.token };
  const good = expectOk(await call('POST', '/v1/webhooks', { auth, body: { label: 'Good', url: `${receiver.url}/ok-${user.userId}?token=t0k` } }), 201);
  const bad = expectOk(await call('POST', '/v1/webhooks', { auth, body: { label: 'Bad', url: `${receiver.url}/fail-${user.userId}` } }), 201);

  const result = expectOk(await call('POST', `/v1/webhooks/${good.id}/test`, { auth }));
  assert.equal(result.delivered, true);
  assert.equal(result.attempts, 1);
  const [got] = receiver.on(`/ok-${user.userId}?token=t0k`);
  assert.ok(got, 'the receiver got the full URL, secret included');
  assert.equal(got.headers['content-type'], 'application/json');
  assert.equal(got.headers['user-agent'], 'browser-router-webhooks/1');
  assert.equal(got.headers['x-webhook-event'], 'webhook.test');
  assert.equal(got.headers['x-webhook-id'], good.id);
  assert.equal(got.headers['x-webhook-attempt'], '1');
  assert.match(String(got.headers['x-webhook-delivery-id']), /^whd_[0-9a-f]{24}$/);
  assert.equal(result.deliveryId, got.headers['x-webhook-delivery-id']);
  assert.deepEqual(Object.keys(got.body), ['version', 'timestamp', 'event', 'status', 'source', 'data']);
  assert.deepEqual(
    { ...got.body, timestamp: undefined },
    {
      version: '1',
      timestamp: undefined,
      event: 'webhook.test',
      status: 'resolved',
      source: SOURCE,
      data: { webhookId: good.id, workspaceId: user.workspaceId, label: 'Good', message: 'A test delivery: your endpoint is reachable.' },
    },
  );
  assert.ok(Math.abs(Date.parse(got.body.timestamp) - Date.now()) < 60_000);

  const failed = expectOk(await call('POST', `/v1/webhooks/${bad.id}/test`, { auth }));
  assert.deepEqual(
    { delivered: failed.delivered, attempts: failed.attempts, statusCode: failed.statusCode },
    { delivered: false, attempts: 1, statusCode: 500 },
  );
  assert.equal(receiver.on(`/fail-${user.userId}`).length, 1, 'no retries');

  const goodNow = expectOk(await call('GET', `/v1/webhooks/${good.id}`, { auth }));
  assert.ok(goodNow.lastDeliveredAt);
  assert.equal(goodNow.lastFailureAt, null);
  const badNow = expectOk(await call('GET', `/v1/webhooks/${bad.id}`, { auth }));
  assert.equal(badNow.lastDeliveredAt, null);
  assert.ok(badNow.lastFailureAt);
  assert.equal(badNow.lastFailureReason, 'HTTP 500 Internal Server Error');

  const log = expectOk(await call('GET', `/v1/webhooks/${bad.id}/deliveries`, { auth }));
  assert.equal(log.total, 1);
  const [entry] = log.items;
  assert.deepEqual(
    {
      deliveryId: entry.deliveryId,
      event: entry.event,
      attempt: entry.attempt,
      statusCode: entry.statusCode,
      error: entry.error,
      ok: entry.ok,
      deliveryStatus: entry.deliveryStatus,
      nextAttemptAt: entry.nextAttemptAt,
    },
    {
      deliveryId: failed.deliveryId,
      event: 'webhook.test',
      attempt: 1,
      statusCode: 500,
      error: 'HTTP 500 Internal Server Error',
      ok: false,
      deliveryStatus: 'failed',
      nextAttemptAt: null,
    },
  );
  assert.ok(entry.durationMs >= 0 && entry.durationMs < 5_000);
  assert.ok(Date.parse(entry.attemptedAt) > 0);
  assert.equal(expectOk(await call('GET', `/v1/webhooks/${good.id}/deliveries`, { auth })).items[0].ok, true);

  // An address where nothing listens: the error is named, the URL is not.
  const { freePort } = await import('../../scripts/lib/ports');
  const down = expectOk(await call('POST', '/v1/webhooks', { auth, body: { label: 'Down', url: `http://127.0.0.1:${await freePort()}/h?secret=zzz` } }), 201);
  const refused = expectOk(await call('POST', `/v1/webhooks/${down.id}/test`, { auth }));
  assert.deepEqual(
    { delivered: refused.delivered, statusCode: refused.statusCode, error: refused.error },
    { delivered: false, statusCode: null, error: 'connection refused' },
  );
  expectError(await call('GET', `/v1/webhooks/${good.id}/deliveries?limit=201`, { auth }), 400, 'validation_error');
});
