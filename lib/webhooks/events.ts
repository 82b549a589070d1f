// Event names. docs/api.md: the cloud sends `session.ended` and `session.error`; the other names are
// accepted in a webhook's `events` (so a configuration survives the day they are sent) but never
// sent. The planned self-hosted gateway (docs/gateway.md) sends its own operational events.

export const SENT_EVENTS = ['session.ended', 'session.error'] as const;

export const ACCEPTED_EVENTS = [
  ...SENT_EVENTS,
  'session.started',
  'provider.up',
  'provider.down',
  'provider.cooldown',
  'credit.low',
  'credit.exhausted',
  'workspace.suspended',
] as const;

export type WebhookEvent = (typeof ACCEPTED_EVENTS)[number];

/** Sent only by POST /v1/webhooks/:id/test; never listed in `events`. */
export const TEST_EVENT = 'webhook.test';
