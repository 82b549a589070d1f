// Answers about webhooks and their deliveries (docs/api.md, Webhooks).
import { z } from 'zod';
import { count, ex, named, timestamp } from './common';

export const webhook = named(
  'Webhook',
  z.object({
    id: z.string(),
    workspaceId: z.string(),
    routerInstanceId: z.string().nullable().describe('null: every router'),
    label: z.string(),
    url: z.string().describe('masked: query values and secrets are hidden'),
    events: z.array(z.string()).describe('empty: every event'),
    active: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
    lastDeliveredAt: timestamp.nullable(),
    lastFailureAt: timestamp.nullable(),
    lastFailureReason: z.string().nullable(),
  }),
  {
    example: {
      id: ex.webhookId,
      workspaceId: ex.workspaceId,
      routerInstanceId: null,
      label: 'Ops alerts',
      url: 'https://hooks.example.com/browser-router?token=***',
      events: ['session.error'],
      active: true,
      createdAt: ex.at,
      updatedAt: ex.at,
      lastDeliveredAt: null,
      lastFailureAt: null,
      lastFailureReason: null,
    },
  },
);

export const deliveryAttempt = z.object({
  id: z.string(),
  deliveryId: z.string(),
  event: z.string(),
  attempt: z.int().min(1),
  attemptedAt: timestamp,
  durationMs: z.int(),
  statusCode: z.int().nullable(),
  error: z.string().nullable(),
  ok: z.boolean(),
  deliveryStatus: z.string().describe('`pending` (a retry is scheduled), `delivered`, `failed` (given up) or `cancelled` (webhook switched off)'),
  nextAttemptAt: timestamp.nullable(),
});

export const testDelivery = z.object({
  delivered: z.boolean(),
  attempts: z.literal(1),
  deliveryId: z.string(),
  statusCode: z.int().nullable(),
  error: z.string().nullable(),
  durationMs: z.int(),
});

export const deliveryList = z.object({ items: z.array(deliveryAttempt), total: count });
