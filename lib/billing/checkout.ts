// POST /v1/billing/checkout (docs/billing-payments.md): quote the top-up with the card fee grossed
// up, write the pending Transaction, ask the processor for a hosted checkout, and hand back its
// URL. The wallet is credited only later, by the processor's webhook.
import { ApiError } from '../api/errors';
import { db } from '../db';
import { log } from '../log';
import { publicWebUrl } from '../mail/mailer';
import { feeTable, quoteTopup } from './fees';
import { paymentProcessor, ProcessorUnavailableError } from './processors';

export interface CheckoutAnswer {
  checkoutUrl: string;
  creditCents: number;
  feeCents: number;
  chargeCents: number;
  /** Beyond the contract: our transaction id and the processor's (what `/billing?checkout=` names). */
  id: string;
  providerTxnId: string;
}

export async function startCheckout(workspaceId: string, userId: string, topupUsdCents: number): Promise<CheckoutAnswer> {
  const quote = quoteTopup(topupUsdCents, feeTable().card);
  const processor = paymentProcessor();
  const web = publicWebUrl();
  const pending = await db.transaction.create({
    data: {
      workspaceId,
      provider: processor.name,
      kind: 'topup',
      status: 'pending',
      amountUsdCents: quote.creditCents,
      creditCents: quote.creditCents,
      feeCents: quote.feeCents,
      chargeCents: quote.chargeCents,
      createdById: userId,
    },
    select: { id: true },
  });
  let result;
  try {
    result = await processor.createCheckout({
      transactionId: pending.id,
      workspaceId,
      ...quote,
      successUrl: `${web}/billing?checkout={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${web}/billing?checkout=cancelled`,
    });
  } catch (error) {
    await db.transaction.update({ where: { id: pending.id }, data: { status: 'failed' } });
    const reason = error instanceof ProcessorUnavailableError ? error.reason : (error as Error)?.name;
    log.warn({ event: 'checkout-failed', processor: processor.name, transactionId: pending.id, reason }, 'the payment processor did not create a checkout');
    throw new ApiError('payment_processor_unavailable', 'the payment processor could not be reached; nothing was charged, try again in a moment');
  }
  await db.transaction.update({ where: { id: pending.id }, data: { providerTxnId: result.providerTxnId, checkoutUrl: result.checkoutUrl } });
  return { checkoutUrl: result.checkoutUrl, ...quote, id: pending.id, providerTxnId: result.providerTxnId };
}
