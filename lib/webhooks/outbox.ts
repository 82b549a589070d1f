// The durable outbox (WebhookDelivery): rows are written in the transaction of the change that
// caused the event, and workers claim, attempt and settle them. Raw SQL where the queue needs it
// (SKIP LOCKED claims, fenced settles on the database's clock), through the one Prisma module.
import { randomBytes, randomUUID } from 'node:crypto';
import { db, Prisma, type Tx } from '../db';
import type { WebhookPayload } from './payload';
import type { NextStep } from './schedule';
import type { AttemptOutcome } from './send-webhook';

/** NOTIFY channel; the payload is the queue name, so idle workers wake at once. */
export const WEBHOOK_CHANNEL = 'webhook_enqueued';
export const CLOUD_QUEUE = 'cloud';

export const newDeliveryId = () => `whd_${randomBytes(12).toString('hex')}`;

/** Writes one delivery per webhook inside the caller's transaction; workers hear of it on commit. */
export async function enqueueDeliveries(
  tx: Tx,
  input: { queue: string; workspaceId: string; webhookIds: string[]; payload: WebhookPayload },
): Promise<string[]> {
  if (input.webhookIds.length === 0) return [];
  const rows = input.webhookIds.map((webhookId) => ({
    id: newDeliveryId(),
    workspaceId: input.workspaceId,
    webhookId,
    event: input.payload.event,
    payload: input.payload as unknown as Prisma.InputJsonObject,
    queue: input.queue,
  }));
  await tx.webhookDelivery.createMany({ data: rows });
  await tx.$executeRaw`SELECT pg_notify(${WEBHOOK_CHANNEL}, ${input.queue})`;
  return rows.map((r) => r.id);
}

export interface ClaimedDelivery {
  id: string;
  workspaceId: string;
  webhookId: string;
  event: string;
  body: string;
  /** Attempts made before this claim. */
  attempts: number;
  urlEncrypted: string;
  claimToken: string;
}

export interface ClaimOptions {
  queue: string;
  workerId: string;
  limit: number;
  /** While claimed, the row is due again only after this long: a dead worker's rows come back. */
  leaseMs: number;
  /** At most this many deliveries of one webhook per claim, so one slow receiver cannot fill a worker. */
  perWebhook: number;
  /** Webhooks this worker already has enough of in flight. */
  excludeWebhookIds: string[];
}

type ClaimRow = Omit<ClaimedDelivery, 'body' | 'claimToken'> & { payload: unknown };

/**
 * Claims due deliveries. The row locks (FOR UPDATE SKIP LOCKED) last only for this statement;
 * what keeps two workers off one delivery afterwards is the lease: the claim moves nextAttemptAt
 * past now, so the row is not due for anyone until it is settled or the lease runs out.
 */
export async function claimDueDeliveries(options: ClaimOptions): Promise<ClaimedDelivery[]> {
  if (options.limit <= 0) return [];
  const claimToken = randomUUID();
  const rows = await db.$queryRaw<ClaimRow[]>`
    WITH due AS (
      SELECT "id", "webhookId", "nextAttemptAt" FROM "WebhookDelivery"
      WHERE "queue" = ${options.queue} AND "status" = 'pending' AND "nextAttemptAt" <= now()
        AND NOT ("webhookId" = ANY (string_to_array(${options.excludeWebhookIds.join(',')}, ',')))
        AND EXISTS (SELECT 1 FROM "Webhook" w WHERE w."id" = "webhookId" AND w."active")
      ORDER BY "nextAttemptAt" LIMIT 500
    ), fair AS (
      SELECT "id" FROM (
        SELECT "id", "nextAttemptAt", row_number() OVER (PARTITION BY "webhookId" ORDER BY "nextAttemptAt", "id") AS n FROM due
      ) ranked
      WHERE n <= ${options.perWebhook}::int ORDER BY "nextAttemptAt" LIMIT ${options.limit}::int
    ), locked AS (
      SELECT d."id" FROM "WebhookDelivery" d JOIN fair ON fair."id" = d."id"
      WHERE d."status" = 'pending' AND d."nextAttemptAt" <= now()
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE "WebhookDelivery" d
    SET "nextAttemptAt" = now() + ${options.leaseMs}::int * interval '1 millisecond', "claimToken" = ${claimToken}, "claimedBy" = ${options.workerId}
    FROM locked, "Webhook" w
    WHERE d."id" = locked."id" AND w."id" = d."webhookId" AND w."active"
    RETURNING d."id", d."workspaceId", d."webhookId", d."event", d."payload", d."attempts", w."urlEncrypted"`;
  return rows.map(({ payload, ...row }) => ({
    ...row,
    attempts: Number(row.attempts),
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
    claimToken,
  }));
}

/**
 * Settles one attempt: the delivery's next state, the attempt in the delivery log, the
 * webhook's last-delivered/last-failure fields. Fenced by the claim token: a worker whose lease
 * ran out (another worker took the row) or whose delivery was cancelled or deleted writes
 * nothing and gets false.
 */
export async function settleAttempt(input: {
  delivery: ClaimedDelivery;
  attempt: number;
  outcome: AttemptOutcome;
  step: NextStep;
  attemptedAt: Date;
}): Promise<boolean> {
  const { delivery, attempt, outcome, step } = input;
  const retryInMs = step.status === 'pending' ? step.retryInMs : 0;
  return db.$transaction(async (tx) => {
    const updated = await tx.$executeRaw`
      UPDATE "WebhookDelivery" SET
        "status" = ${step.status}, "attempts" = ${attempt}::int,
        "nextAttemptAt" = CASE WHEN ${step.status} = 'pending' THEN now() + ${retryInMs}::int * interval '1 millisecond' ELSE "nextAttemptAt" END,
        "deliveredAt" = CASE WHEN ${step.status} = 'delivered' THEN now() ELSE NULL END,
        "claimToken" = NULL, "claimedBy" = NULL
      WHERE "id" = ${delivery.id} AND "claimToken" = ${delivery.claimToken} AND "status" = 'pending'`;
    if (updated === 0) return false;
    await recordAttempt(tx, { deliveryId: delivery.id, webhookId: delivery.webhookId, attempt, outcome, attemptedAt: input.attemptedAt });
    return true;
  });
}

/** The delivery log row and the webhook's last-delivered / last-failure fields. */
export async function recordAttempt(
  tx: Tx,
  input: { deliveryId: string; webhookId: string; attempt: number; outcome: AttemptOutcome; attemptedAt: Date },
): Promise<void> {
  const { outcome } = input;
  await tx.webhookAttempt.create({
    data: {
      deliveryId: input.deliveryId,
      webhookId: input.webhookId,
      attempt: input.attempt,
      attemptedAt: input.attemptedAt,
      statusCode: outcome.statusCode,
      error: outcome.error,
      durationMs: outcome.durationMs,
    },
  });
  const at = new Date(input.attemptedAt.getTime() + outcome.durationMs);
  await tx.webhook.updateMany({
    where: { id: input.webhookId },
    data: outcome.ok ? { lastDeliveredAt: at } : { lastFailureAt: at, lastFailureReason: outcome.error },
  });
}

/** Pending deliveries of a webhook that was switched off are not sent later. */
export async function cancelPendingDeliveries(tx: Tx, webhookId: string): Promise<number> {
  const { count } = await tx.webhookDelivery.updateMany({
    where: { webhookId, status: 'pending' },
    data: { status: 'cancelled', claimToken: null, claimedBy: null },
  });
  return count;
}

/** Settled deliveries (and their attempts) older than the retention window. */
export async function purgeSettledDeliveries(olderThanMs: number): Promise<number> {
  const before = new Date(Date.now() - olderThanMs);
  const { count } = await db.webhookDelivery.deleteMany({ where: { status: { in: ['delivered', 'failed', 'cancelled'] }, createdAt: { lt: before } } });
  return count;
}
