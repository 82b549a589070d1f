// The payment processor behind top-ups (docs/billing-payments.md): Stripe when STRIPE_SECRET_KEY
// is set, else the built-in test mode. Both speak Stripe's shapes: a checkout session per top-up,
// webhook events `{ id, type, data: { object } }` signed in Stripe's `Stripe-Signature` format,
// so one verify-and-process path (lib/billing/webhook.ts) serves both.

export type ProcessorName = 'stripe' | 'test';

export interface CheckoutInput {
  /** Our Transaction's id: sent as the idempotency key and in the session's metadata. */
  transactionId: string;
  workspaceId: string;
  creditCents: number;
  feeCents: number;
  chargeCents: number;
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutResult {
  /** The processor's checkout session id (our Transaction's providerTxnId). */
  providerTxnId: string;
  /** Where the payer goes to pay. */
  checkoutUrl: string;
}

/** A verified webhook event, in Stripe's envelope. `data.object` is read field by field, defensively. */
export interface ProcessorEvent {
  id: string;
  type: string;
  created?: number;
  data: { object: Record<string, unknown> };
}

/** What a refund needs to know about a checkout session it cannot find by payment intent. */
export interface CheckoutSessionInfo {
  id: string;
  paymentStatus: string | null;
  /** metadata.transactionId: ours when it names one of our Transactions. */
  transactionId: string | null;
  workspaceId: string | null;
}

export interface PaymentProcessor {
  readonly name: ProcessorName;
  /** Creates the hosted checkout for a pending top-up; throws ProcessorUnavailableError when the processor cannot be reached or refuses. */
  createCheckout(input: CheckoutInput): Promise<CheckoutResult>;
  /** Verifies the raw body against the signature header; throws WebhookSignatureError. */
  verifyWebhook(rawBody: string, headers: Headers): ProcessorEvent;
  /** The receipt of a paid top-up, or null when there is none (or it cannot be fetched). */
  receiptUrl(ref: { transactionId: string; paymentIntentId: string | null }): Promise<string | null>;
  /** The checkout session that created a payment intent; null when there is none. Throws ProcessorUnavailableError. */
  checkoutForPaymentIntent(paymentIntentId: string): Promise<CheckoutSessionInfo | null>;
}

export class ProcessorUnavailableError extends Error {
  constructor(
    message: string,
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'ProcessorUnavailableError';
  }
}

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}
