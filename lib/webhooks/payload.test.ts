import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWebhookSchema, updateWebhookSchema } from './schemas';
import { readSettings } from '../config/settings';
import { cloudSource, sessionPayload, testPayload, type EndedSession } from './payload';

const ended: EndedSession = {
  id: 'ses_1',
  state: 'closed',
  providerSlug: 'local-a',
  durationMs: 1234,
  bytesIn: 5_000n,
  bytesOut: 7_000n,
  billedMillicents: 2_500n,
  errorReason: 'idle timeout',
  endedAt: new Date('2026-01-02T03:04:05.678Z'),
};

test('session.ended: the body of docs/api.md, keys in order, no errorReason even when the close had a reason', () => {
  const body = sessionPayload(ended, 'gw/cloud');
  assert.equal(
    JSON.stringify(body),
    JSON.stringify({
      version: '1',
      timestamp: '2026-01-02T03:04:05.678Z',
      event: 'session.ended',
      status: 'resolved',
      source: 'gw/cloud',
      data: { sessionId: 'ses_1', providerSlug: 'local-a', durationMs: 1234, bytesIn: 5000, bytesOut: 7000, billedCents: 3, errored: false },
    }),
  );
});

test('session.error: status firing, errored true, errorReason', () => {
  const body = sessionPayload({ ...ended, state: 'errored', errorReason: 'provider connection error', billedMillicents: 0n }, 'gw/cloud');
  assert.equal(body.event, 'session.error');
  assert.equal(body.status, 'firing');
  assert.deepEqual(body.data, {
    sessionId: 'ses_1',
    providerSlug: 'local-a',
    durationMs: 1234,
    bytesIn: 5000,
    bytesOut: 7000,
    billedCents: 0,
    errored: true,
    errorReason: 'provider connection error',
  });
  assert.equal(sessionPayload({ ...ended, state: 'errored', errorReason: null }, 's').data.errorReason, 'the session ended with an error');
});

test('source: <gateway-name>/cloud from GATEWAY_NAME, with a default', () => {
  assert.equal(readSettings({}).gatewayName, 'browser-router');
  assert.equal(readSettings({ GATEWAY_NAME: '  acme-edge ' }).gatewayName, 'acme-edge');
  assert.equal(readSettings({ GATEWAY_NAME: ' ' }).gatewayName, 'browser-router');
  assert.equal(cloudSource('acme-edge'), 'acme-edge/cloud');
});

test('webhook.test body', () => {
  const body = testPayload({ id: 'wh_1', workspaceId: 'ws_1', label: 'Ops' }, 'gw/cloud', new Date(0));
  assert.deepEqual(Object.keys(body), ['version', 'timestamp', 'event', 'status', 'source', 'data']);
  assert.equal(body.event, 'webhook.test');
  assert.equal(body.status, 'resolved');
  assert.deepEqual(Object.keys(body.data), ['webhookId', 'workspaceId', 'label', 'message']);
});

test('event lists: unknown names are refused naming the field; duplicates dropped; http(s) only; no unknown fields', () => {
  const bad = createWebhookSchema.safeParse({ label: 'x', url: 'https://x.test', events: ['session.ended', 'session.exploded'] });
  assert.ok(!bad.success);
  assert.deepEqual(bad.error.issues[0]!.path, ['events', 1]);
  assert.match(bad.error.issues[0]!.message, /unknown event "session.exploded"/);
  const good = createWebhookSchema.parse({ label: ' x ', url: 'https://x.test', events: ['credit.low', 'credit.low', 'workspace.suspended'] });
  assert.deepEqual(good.events, ['credit.low', 'workspace.suspended']);
  assert.equal(good.label, 'x');
  assert.ok(!createWebhookSchema.safeParse({ label: 'x', url: 'ftp://x.test' }).success);
  assert.ok(!updateWebhookSchema.safeParse({ active: 'yes' }).success);
  assert.ok(!updateWebhookSchema.safeParse({ secret: 'x' }).success, 'unknown fields are refused');
});
