// Webhook bodies (docs/api.md, Events; docs/gateway.md, Webhooks): one shape, keys in the documented order.
import { centsOf } from '../billing/charges';
import { settings } from '../config/settings';
import { TEST_EVENT } from './events';

export interface WebhookPayload {
  version: '1';
  timestamp: string;
  event: string;
  status: 'resolved' | 'firing';
  source: string;
  data: Record<string, unknown>;
}

/** docs/api.md: the hosted service signs its events `<gateway-name>/cloud` (GATEWAY_NAME); the gateway (docs/gateway.md) uses the bare name. */
export const cloudSource = (name = settings().gatewayName) => `${name}/cloud`;

export function buildPayload(input: {
  event: string;
  status: WebhookPayload['status'];
  source: string;
  at: Date;
  data: Record<string, unknown>;
}): WebhookPayload {
  return { version: '1', timestamp: input.at.toISOString(), event: input.event, status: input.status, source: input.source, data: input.data };
}

export interface EndedSession {
  id: string;
  state: 'active' | 'closed' | 'errored';
  providerSlug: string;
  durationMs: number;
  bytesIn: bigint | number;
  bytesOut: bigint | number;
  billedMillicents: bigint | number;
  errorReason: string | null;
  endedAt: Date | null;
}

export type SessionEvent = 'session.ended' | 'session.error';

export const sessionEventOf = (session: Pick<EndedSession, 'state'>): SessionEvent => (session.state === 'errored' ? 'session.error' : 'session.ended');

/** `session.ended` (resolved) or `session.error` (firing, with errorReason) for a session that ended. */
export function sessionPayload(session: EndedSession, source: string): WebhookPayload {
  const event = sessionEventOf(session);
  const errored = event === 'session.error';
  const data: Record<string, unknown> = {
    sessionId: session.id,
    providerSlug: session.providerSlug,
    durationMs: session.durationMs,
    bytesIn: Number(session.bytesIn),
    bytesOut: Number(session.bytesOut),
    // Same rounding as the Session resource's billedCents.
    billedCents: centsOf(BigInt(session.billedMillicents)),
    errored,
  };
  if (errored) data.errorReason = session.errorReason ?? 'the session ended with an error';
  return buildPayload({ event, status: errored ? 'firing' : 'resolved', source, at: session.endedAt ?? new Date(), data });
}

/** POST /v1/webhooks/:id/test (docs/api.md leaves the body open; see docs/decisions-webhooks.md). */
export function testPayload(webhook: { id: string; workspaceId: string; label: string }, source: string, at = new Date()): WebhookPayload {
  return buildPayload({
    event: TEST_EVENT,
    status: 'resolved',
    source,
    at,
    data: { webhookId: webhook.id, workspaceId: webhook.workspaceId, label: webhook.label, message: 'A test delivery: your endpoint is reachable.' },
  });
}
