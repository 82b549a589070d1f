import type { Webhook } from '../db/generated/client';
import { displayUrl } from './mask-url';
import type { z } from 'zod';
import type { webhook as webhookAnswer } from '../openapi/resources/webhooks';

/** The Webhook resource of docs/api.md. `url` is the masked display form; the full address never leaves the server. */
export function serializeWebhook(w: Webhook): z.input<typeof webhookAnswer> {
  return {
    id: w.id,
    workspaceId: w.workspaceId,
    routerInstanceId: w.routerId,
    label: w.label,
    url: displayUrl(w.urlDisplay),
    events: w.events,
    active: w.active,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
    lastDeliveredAt: w.lastDeliveredAt?.toISOString() ?? null,
    lastFailureAt: w.lastFailureAt?.toISOString() ?? null,
    lastFailureReason: w.lastFailureReason,
  };
}

export type WebhookResource = ReturnType<typeof serializeWebhook>;
