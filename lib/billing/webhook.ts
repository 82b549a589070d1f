// The payment processor's webhooks (docs/billing-payments.md): verify the raw body, then act on
// the event in one database transaction that first records its id in ProcessorEvent, so an event
// delivered twice (or concurrently) moves money at most once. Money moves only through
// ledger.post inside that transaction. Network lookups (a receipt, the checkout session behind a
// refund) happen before it, so no database transaction waits on the processor.
import { ApiError } from '../api/errors';
import { db, type Tx } from '../db';
import type { Transaction } from '../db/generated/client';
import { log } from '../log';
import { MILLICENTS_PER_CENT } from './rates';
import { post } from './ledger';
import { ProcessorUnavailableError, WebhookSignatureError, type PaymentProcessor, type ProcessorEvent } from './processors';
import { describeStripeError } from './processors/stripe';

export interface WebhookOutcome {
  received: true;
  /** The event id was already processed: nothing happened this time. */
  duplicate: boolean;
  /** What was done, for logs and tests: `credited`, `refunded`, `failed`, `expired`, `nothing`, `ignored`. */
  action: string;
}

const HANDLED = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'charge.refunded',
]);

/** Verifies and processes one delivery; a bad signature is a 400 `bad_request`. */
export async function handleWebhook(processor: PaymentProcessor, rawBody: string, headers: Headers): Promise<WebhookOutcome> {
  let event: ProcessorEvent;
  try {
    event = processor.verifyWebhook(rawBody, headers);
  } catch (error) {
    if (error instanceof WebhookSignatureError) throw new ApiError('validation_error', error.message);
    throw error;
  }
  return processEvent(processor, event);
}

const str = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);
const int = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) ? value : null);
/** An expandable reference: the id string, or the expanded object's id. */
const ref = (value: unknown): string | null => str(value) ?? str((value as { id?: unknown } | null)?.id);

const ignored = (action = 'ignored'): WebhookOutcome => ({ received: true, duplicate: false, action });

export async function processEvent(processor: PaymentProcessor, event: ProcessorEvent): Promise<WebhookOutcome> {
  if (!HANDLED.has(event.type)) return ignored();
  const object = event.data.object;
  const elog = log.child({ event: 'billing-webhook', processor: processor.name, eventId: event.id, type: event.type });

  if (event.type === 'charge.refunded') return chargeRefunded(processor, event, object, elog);

  const topup = await findTopup(processor, object);
  if (!topup) {
    elog.info({ session: str(object.id) }, 'no top-up of ours for this checkout session (or its workspace is gone); ignored');
    return ignored();
  }
  const paymentStatus = str(object.payment_status);
  if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
    if (paymentStatus !== 'paid') {
      // `unpaid`: a delayed payment method; async_payment_succeeded or _failed follows.
      return once(event, processor, async () => 'nothing');
    }
    const paymentIntentId = ref(object.payment_intent);
    const receiptUrl = topup.status === 'pending' ? await fetchReceipt(processor, topup.id, paymentIntentId, elog) : null;
    return once(event, processor, async (tx) =>
      (await markPaid(tx, topup, { sessionId: str(object.id), paymentIntentId, receiptUrl })) ? 'credited' : 'nothing',
    );
  }
  const next = event.type === 'checkout.session.async_payment_failed' ? 'failed' : 'expired';
  return once(event, processor, async (tx) => {
    const moved = await tx.transaction.updateMany({ where: { id: topup.id, status: 'pending' }, data: { status: next } });
    return moved.count === 1 ? next : 'nothing';
  });
}

/**
 * Records the event id and runs `act` in one database transaction; an id already recorded (a
 * redelivery, or the same event processed concurrently) does nothing.
 */
async function once(event: ProcessorEvent, processor: PaymentProcessor, act: (tx: Tx) => Promise<string>): Promise<WebhookOutcome> {
  return db.$transaction(async (tx) => {
    const inserted = await tx.$executeRaw`
      INSERT INTO "ProcessorEvent" ("id", "processor", "type", "receivedAt") VALUES (${event.id}, ${processor.name}, ${event.type}, now())
      ON CONFLICT ("id") DO NOTHING`;
    if (inserted === 0) return { received: true as const, duplicate: true, action: 'nothing' };
    return { received: true as const, duplicate: false, action: await act(tx) };
  });
}

/** Our pending-or-later top-up for a checkout session: by metadata.transactionId, else by the session id. */
async function findTopup(processor: PaymentProcessor, session: Record<string, unknown>): Promise<Transaction | null> {
  const sessionId = str(session.id);
  const metadata = (session.metadata ?? {}) as Record<string, unknown>;
  const transactionId = str(metadata.transactionId);
  const row = transactionId
    ? await db.transaction.findUnique({ where: { id: transactionId } })
    : sessionId
      ? await db.transaction.findUnique({ where: { providerTxnId: sessionId } })
      : null;
  if (!row || row.kind !== 'topup' || row.provider !== processor.name) return null;
  // The session must be this row's (its id is stored once the processor answered the checkout).
  if (row.providerTxnId && sessionId && row.providerTxnId !== sessionId) return null;
  const workspaceId = str(metadata.workspaceId) ?? str(session.client_reference_id);
  if (workspaceId && workspaceId !== row.workspaceId) return null;
  return row;
}

async function fetchReceipt(processor: PaymentProcessor, transactionId: string, paymentIntentId: string | null, elog: typeof log): Promise<string | null> {
  try {
    return await processor.receiptUrl({ transactionId, paymentIntentId });
  } catch (error) {
    elog.warn({ transactionId, reason: describeStripeError(error) }, 'the receipt could not be fetched; the top-up is credited without it');
    return null;
  }
}

/** pending → paid and the wallet credited, in `tx`; false when the top-up was not pending. */
async function markPaid(
  tx: Tx,
  topup: Transaction,
  paid: { sessionId: string | null; paymentIntentId: string | null; receiptUrl: string | null },
): Promise<boolean> {
  const now = new Date();
  const moved = await tx.transaction.updateMany({
    where: { id: topup.id, status: 'pending' },
    data: {
      status: 'paid',
      paidAt: now,
      paymentIntentId: paid.paymentIntentId,
      receiptUrl: paid.receiptUrl,
      ...(topup.providerTxnId ? {} : paid.sessionId ? { providerTxnId: paid.sessionId } : {}),
    },
  });
  if (moved.count !== 1) return false;
  await post(
    tx,
    topup.workspaceId,
    [
      {
        kind: 'topup',
        amountMillicents: BigInt(topup.creditCents) * MILLICENTS_PER_CENT,
        cause: `topup:${topup.id}`,
        transactionId: topup.id,
        note: `top-up of ${topup.creditCents} cents (charged ${topup.chargeCents})`,
      },
    ],
    now,
  );
  return true;
}

/** The credit taken back when `refundedCents` of the charge are refunded: proportional, all of it when fully refunded. */
export function creditTakenBack(refundedCents: number, creditCents: number, chargeCents: number): number {
  if (refundedCents <= 0 || chargeCents <= 0) return 0;
  if (refundedCents >= chargeCents) return creditCents;
  return Math.floor((refundedCents * creditCents) / chargeCents);
}

async function chargeRefunded(processor: PaymentProcessor, event: ProcessorEvent, charge: Record<string, unknown>, elog: typeof log): Promise<WebhookOutcome> {
  const chargeId = str(charge.id);
  const paymentIntentId = ref(charge.payment_intent);
  const amountRefunded = int(charge.amount_refunded);
  if (!chargeId || !paymentIntentId || amountRefunded === null) {
    elog.warn('a charge.refunded event without a charge id, payment intent or amount_refunded; ignored');
    return ignored();
  }
  const behind = await topupBehind(processor, paymentIntentId, charge, elog);
  if (!behind) return ignored();
  const { topup, creditFirst } = behind;
  if (topup.kind !== 'topup' || topup.provider !== processor.name) return ignored();
  return once(event, processor, async (tx) => {
    if (creditFirst) await markPaid(tx, topup, { sessionId: creditFirst.sessionId, paymentIntentId, receiptUrl: creditFirst.receiptUrl });
    return recordRefund(tx, topup, { chargeId, amountRefunded, charge }, elog);
  });
}

/**
 * The top-up a refund's payment intent belongs to. A refund may arrive before the checkout's
 * completion: then the processor is asked which session made the payment intent, and when it is
 * a paid top-up of ours, it is credited first (`creditFirst`). Null: not ours (ignored).
 */
async function topupBehind(
  processor: PaymentProcessor,
  paymentIntentId: string,
  charge: Record<string, unknown>,
  elog: typeof log,
): Promise<{ topup: Transaction; creditFirst: { sessionId: string; receiptUrl: string | null } | null } | null> {
  const known = await db.transaction.findUnique({ where: { paymentIntentId } });
  if (known) return { topup: known, creditFirst: null };
  let session;
  try {
    session = await processor.checkoutForPaymentIntent(paymentIntentId);
  } catch (error) {
    // Not acknowledged: the processor delivers the event again later.
    elog.warn(
      { reason: error instanceof ProcessorUnavailableError ? error.reason : describeStripeError(error) },
      'the checkout behind a refund could not be looked up',
    );
    throw new ApiError('payment_processor_unavailable', 'the payment processor could not be reached to look up this refund; deliver it again later');
  }
  const row = session?.transactionId ? await db.transaction.findUnique({ where: { id: session.transactionId } }) : null;
  if (
    !session ||
    !row ||
    row.kind !== 'topup' ||
    row.provider !== processor.name ||
    (row.providerTxnId && row.providerTxnId !== session.id) ||
    (session.workspaceId && session.workspaceId !== row.workspaceId) ||
    session.paymentStatus !== 'paid'
  ) {
    elog.info({ chargeId: str(charge.id) }, 'a refund of a payment that is not a paid top-up of ours (or its workspace is gone); ignored');
    return null;
  }
  return { topup: row, creditFirst: { sessionId: session.id, receiptUrl: str(charge.receipt_url) } };
}

/** Inside the event's transaction: the refund row, the credit taken back from the wallet, the top-up's refunded amount. */
async function recordRefund(
  tx: Tx,
  found: Transaction,
  event: { chargeId: string; amountRefunded: number; charge: Record<string, unknown> },
  elog: typeof log,
): Promise<string> {
  const { chargeId, amountRefunded, charge } = event;
  // Refund events may arrive together or out of order: the row is locked, and only an
  // amount_refunded above what is recorded moves money (the cumulative amount is monotone).
  await tx.$queryRaw`SELECT 1 FROM "Transaction" WHERE "id" = ${found.id} FOR UPDATE`;
  const current = await tx.transaction.findUnique({ where: { id: found.id } });
  if (!current || !['paid', 'partially_refunded', 'refunded'].includes(current.status)) {
    elog.warn({ transactionId: found.id, status: current?.status }, 'a refund of a top-up that was never paid; ignored');
    return 'ignored';
  }
  const cumulative = Math.min(amountRefunded, current.chargeCents);
  if (cumulative <= current.refundedCents) return 'nothing';
  const credit =
    creditTakenBack(cumulative, current.creditCents, current.chargeCents) - creditTakenBack(current.refundedCents, current.creditCents, current.chargeCents);
  const chargeDelta = cumulative - current.refundedCents;
  const refundId = latestRefundId(charge, chargeDelta) ?? `${chargeId}:${amountRefunded}`;
  const now = new Date();
  await insertRefund(tx, current, { refundId, credit, chargeDelta, now });
  await tx.transaction.update({
    where: { id: current.id },
    data: { refundedCents: cumulative, status: cumulative >= current.chargeCents ? 'refunded' : 'partially_refunded', refundedAt: now },
  });
  return 'refunded';
}

/** The refund's own row and, when credit is taken back, its wallet entry. */
async function insertRefund(tx: Tx, topup: Transaction, refund: { refundId: string; credit: number; chargeDelta: number; now: Date }): Promise<void> {
  const row = await tx.transaction.create({
    data: {
      workspaceId: topup.workspaceId,
      provider: topup.provider,
      providerTxnId: refund.refundId,
      kind: 'refund',
      status: 'refunded',
      amountUsdCents: refund.credit,
      creditCents: refund.credit,
      feeCents: refund.chargeDelta - refund.credit,
      chargeCents: refund.chargeDelta,
      topupId: topup.id,
      receiptUrl: topup.receiptUrl,
      refundedAt: refund.now,
    },
    select: { id: true },
  });
  if (refund.credit > 0) {
    await post(
      tx,
      topup.workspaceId,
      [
        {
          kind: 'refund',
          amountMillicents: -BigInt(refund.credit) * MILLICENTS_PER_CENT,
          cause: `refund:${refund.refundId}`,
          transactionId: row.id,
          note: `refund of ${refund.chargeDelta} cents of top-up ${topup.id}`,
        },
      ],
      refund.now,
    );
  }
}

/** The id of the refund this event reports, when the charge carries its refunds and the newest one is exactly the new amount. */
function latestRefundId(charge: Record<string, unknown>, chargeDelta: number): string | null {
  const list = (charge.refunds as { data?: unknown } | null | undefined)?.data;
  if (!Array.isArray(list) || list.length === 0) return null;
  const newest = [...list].sort((a, b) => (int((b as { created?: unknown }).created) ?? 0) - (int((a as { created?: unknown }).created) ?? 0))[0] as {
    id?: unknown;
    amount?: unknown;
  };
  return int(newest.amount) === chargeDelta ? str(newest.id) : null;
}
