// POST /v1/webhooks/:id/test: one `webhook.test` delivery, sent now from the calling process,
// with no retries; the attempt goes to the delivery log like any other.
import { db, Prisma } from '../db';
import { decryptText } from '../crypto/encryption';
import { log } from '../log';
import { TEST_EVENT } from './events';
import { newDeliveryId, recordAttempt } from './outbox';
import { cloudSource, testPayload } from './payload';
import { getWebhookRowOrThrow } from './read-webhooks';
import { TEST_SCHEDULE } from './schedule';
import { deliveryHeaders, sendWebhook } from './send-webhook';

export async function sendTestDelivery(workspaceId: string, id: string) {
  const webhook = await getWebhookRowOrThrow(workspaceId, id);
  const payload = testPayload(webhook, cloudSource());
  const deliveryId = newDeliveryId();
  const attemptedAt = new Date();
  const outcome = await sendWebhook({
    url: decryptText(webhook.urlEncrypted),
    body: JSON.stringify(payload),
    headers: deliveryHeaders({ webhookId: webhook.id, deliveryId, event: TEST_EVENT, attempt: 1 }),
    timeoutMs: TEST_SCHEDULE.attemptTimeoutMs,
  });
  try {
    await db.$transaction(async (tx) => {
      await tx.webhookDelivery.create({
        data: {
          id: deliveryId,
          workspaceId,
          webhookId: webhook.id,
          event: TEST_EVENT,
          payload: payload as unknown as Prisma.InputJsonObject,
          queue: 'test',
          status: outcome.ok ? 'delivered' : 'failed',
          attempts: 1,
          nextAttemptAt: attemptedAt,
          deliveredAt: outcome.ok ? new Date() : null,
        },
      });
      await recordAttempt(tx, { deliveryId, webhookId: webhook.id, attempt: 1, outcome, attemptedAt });
    });
  } catch (error) {
    // Deleted while the request was out: the caller still gets the result.
    log.warn({ webhookId: webhook.id, err: (error as Error).message }, 'test delivery not recorded');
  }
  return { delivered: outcome.ok, attempts: 1, deliveryId, statusCode: outcome.statusCode, error: outcome.error, durationMs: outcome.durationMs };
}
