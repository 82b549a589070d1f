// GET /v1/webhooks/:id/deliveries (beyond the spec): the webhook's recent attempts, newest first,
// each with its delivery's event and where that delivery stands now.
import { db } from '../db';
import type { z } from 'zod';
import { getWebhookRowOrThrow } from './read-webhooks';
import type { listDeliveriesQuery } from './schemas';

export async function listDeliveryAttempts(workspaceId: string, webhookId: string, query: z.infer<typeof listDeliveriesQuery>) {
  await getWebhookRowOrThrow(workspaceId, webhookId);
  const [attempts, total] = await Promise.all([
    db.webhookAttempt.findMany({
      where: { webhookId },
      orderBy: [{ attemptedAt: 'desc' }, { attempt: 'desc' }],
      take: query.limit,
      include: { delivery: { select: { event: true, status: true, attempts: true, nextAttemptAt: true } } },
    }),
    db.webhookAttempt.count({ where: { webhookId } }),
  ]);
  return {
    items: attempts.map((a) => ({
      id: a.id,
      deliveryId: a.deliveryId,
      event: a.delivery.event,
      attempt: a.attempt,
      attemptedAt: a.attemptedAt.toISOString(),
      durationMs: a.durationMs,
      statusCode: a.statusCode,
      error: a.error,
      ok: a.error === null && a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300,
      /** `pending` (a retry is scheduled), `delivered`, `failed` (given up) or `cancelled` (webhook switched off). */
      deliveryStatus: a.delivery.status,
      nextAttemptAt: a.delivery.status === 'pending' ? a.delivery.nextAttemptAt.toISOString() : null,
    })),
    total,
  };
}
