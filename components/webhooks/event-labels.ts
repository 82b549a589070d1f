// How the dashboard names the events a webhook can receive (docs/api.md, Events).
import { ACCEPTED_EVENTS, SENT_EVENTS, type WebhookEvent } from '@/lib/webhooks/events';

export const eventDescriptions: Record<WebhookEvent, string> = {
  'session.ended': 'A session closed normally',
  'session.error': 'A session ended with an error',
  'session.started': 'A session started',
  'provider.up': 'A provider became reachable',
  'provider.down': 'A provider stopped answering',
  'provider.cooldown': 'A provider entered cooldown',
  'credit.low': 'The wallet is running low',
  'credit.exhausted': 'The wallet is empty',
  'workspace.suspended': 'The workspace was suspended',
};

export const isSentEvent = (event: string) => (SENT_EVENTS as readonly string[]).includes(event);

export { ACCEPTED_EVENTS };
