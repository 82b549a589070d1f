// Stripe: Checkout Sessions in `payment` mode (docs/billing-payments.md). STRIPE_SECRET_KEY
// authenticates the API calls, STRIPE_WEBHOOK_SECRET (`whsec_…`) verifies webhook deliveries, and
// STRIPE_API_BASE (e.g. http://127.0.0.1:4242) points the package at another address (the tests'
// stand-in). Keys are never logged: errors are reported by Stripe's type and code only.
import Stripe from 'stripe';
import { SIGNATURE_HEADER, parseEvent, verifySignature } from './signature';
import {
  ProcessorUnavailableError,
  WebhookSignatureError,
  type CheckoutInput,
  type CheckoutResult,
  type CheckoutSessionInfo,
  type PaymentProcessor,
  type ProcessorEvent,
} from './types';
import { settings } from '../../config/settings';

function apiBase(): Pick<NonNullable<ConstructorParameters<typeof Stripe>[1]>, 'host' | 'port' | 'protocol'> {
  const raw = settings().stripeApiBase;
  if (!raw) return {};
  const url = new URL(raw);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

/** Why a Stripe call failed, without anything secret: the error's type and code. */
export function describeStripeError(error: unknown): string {
  const e = error as { type?: unknown; code?: unknown; statusCode?: unknown } | null;
  const parts = [e?.type, e?.code, e?.statusCode].filter((p) => typeof p === 'string' || typeof p === 'number');
  return parts.length > 0 ? parts.join(' ') : ((error as Error)?.name ?? 'unknown error');
}

const usd = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export class StripeProcessor implements PaymentProcessor {
  readonly name = 'stripe' as const;
  private readonly client: Stripe;

  constructor(
    secretKey: string,
    private readonly webhookSecret: string | undefined,
  ) {
    this.client = new Stripe(secretKey, { ...apiBase(), maxNetworkRetries: 1, timeout: 20_000, appInfo: { name: 'browser-router' } });
  }

  async createCheckout(input: CheckoutInput): Promise<CheckoutResult> {
    let session: Stripe.Checkout.Session;
    try {
      session = await this.client.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'usd',
                unit_amount: input.chargeCents,
                product_data: { name: `Wallet top-up: ${usd(input.creditCents)} credit`, description: `Includes a ${usd(input.feeCents)} card processing fee` },
              },
            },
          ],
          client_reference_id: input.workspaceId,
          metadata: { transactionId: input.transactionId, workspaceId: input.workspaceId, creditCents: String(input.creditCents) },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        },
        { idempotencyKey: input.transactionId },
      );
    } catch (error) {
      throw new ProcessorUnavailableError('Stripe did not create the checkout session', describeStripeError(error));
    }
    if (!session.url) throw new ProcessorUnavailableError('Stripe answered without a checkout URL', 'no url');
    return { providerTxnId: session.id, checkoutUrl: session.url };
  }

  verifyWebhook(rawBody: string, headers: Headers): ProcessorEvent {
    if (!this.webhookSecret) throw new WebhookSignatureError('webhooks cannot be verified: STRIPE_WEBHOOK_SECRET is not set');
    verifySignature(rawBody, headers.get(SIGNATURE_HEADER), this.webhookSecret);
    return parseEvent(rawBody);
  }

  async receiptUrl(ref: { transactionId: string; paymentIntentId: string | null }): Promise<string | null> {
    if (!ref.paymentIntentId) return null;
    const intent = await this.client.paymentIntents.retrieve(ref.paymentIntentId);
    const latest = intent.latest_charge;
    if (!latest) return null;
    if (typeof latest !== 'string') return latest.receipt_url ?? null;
    const charge = await this.client.charges.retrieve(latest);
    return charge.receipt_url ?? null;
  }

  async checkoutForPaymentIntent(paymentIntentId: string): Promise<CheckoutSessionInfo | null> {
    let list: Stripe.ApiList<Stripe.Checkout.Session>;
    try {
      list = await this.client.checkout.sessions.list({ payment_intent: paymentIntentId, limit: 1 });
    } catch (error) {
      throw new ProcessorUnavailableError('Stripe did not answer the checkout-session lookup', describeStripeError(error));
    }
    const session = list.data[0];
    if (!session) return null;
    return {
      id: session.id,
      paymentStatus: session.payment_status ?? null,
      transactionId: session.metadata?.transactionId ?? null,
      workspaceId: session.metadata?.workspaceId ?? session.client_reference_id ?? null,
    };
  }
}
