// The built-in test mode (no STRIPE_SECRET_KEY): no money moves. A checkout is a page of ours,
// /billing/test-checkout/<transaction id>, where the instance operator confirms or cancels it
// (lib/billing/test-checkout.ts). Confirming signs a Stripe-shaped event with the test-mode
// secret and hands it to the same verify-and-process path as a Stripe delivery.
import { createHmac } from 'node:crypto';
import { publicWebUrl } from '../../mail/mailer';
import { SIGNATURE_HEADER, parseEvent, verifySignature } from './signature';
import type { CheckoutInput, CheckoutResult, CheckoutSessionInfo, PaymentProcessor, ProcessorEvent } from './types';
import { settings } from '../../config/settings';

/**
 * The test mode's webhook secret: derived from ENCRYPTION_KEY (HMAC with a fixed label), so
 * nothing new is stored and nobody without the instance's key can sign a test payment.
 */
export function testModeWebhookSecret(): string {
  const key = settings().encryptionKey;
  if (!key) throw new Error('ENCRYPTION_KEY is not set');
  return `whsec_test_${createHmac('sha256', Buffer.from(key, 'base64')).update('billing test-mode webhook v1').digest('base64url')}`;
}

/** The test mode's checkout session id for a transaction. */
export const testCheckoutId = (transactionId: string) => `testcs_${transactionId}`;
/** The test mode's payment intent id for a transaction. */
export const testPaymentIntentId = (transactionId: string) => `testpi_${transactionId}`;

export const testCheckoutUrl = (transactionId: string) => `${publicWebUrl()}/billing/test-checkout/${encodeURIComponent(transactionId)}`;
export const testReceiptUrl = (transactionId: string) => `${publicWebUrl()}/billing/receipts/${encodeURIComponent(transactionId)}`;

export class TestModeProcessor implements PaymentProcessor {
  readonly name = 'test' as const;

  async createCheckout(input: CheckoutInput): Promise<CheckoutResult> {
    return { providerTxnId: testCheckoutId(input.transactionId), checkoutUrl: testCheckoutUrl(input.transactionId) };
  }

  verifyWebhook(rawBody: string, headers: Headers): ProcessorEvent {
    verifySignature(rawBody, headers.get(SIGNATURE_HEADER), testModeWebhookSecret());
    return parseEvent(rawBody);
  }

  async receiptUrl(ref: { transactionId: string }): Promise<string | null> {
    return testReceiptUrl(ref.transactionId);
  }

  // Test payments are confirmed only through our own page, which sends the completion first.
  async checkoutForPaymentIntent(): Promise<CheckoutSessionInfo | null> {
    return null;
  }
}
