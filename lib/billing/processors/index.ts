// Which payment processor this installation uses: Stripe when STRIPE_SECRET_KEY is set, else the
// built-in test mode (docs/billing-payments.md).
import { StripeProcessor } from './stripe';
import { TestModeProcessor } from './test-mode';
import type { PaymentProcessor } from './types';
import { settings, type Settings } from '../../config/settings';

export type { PaymentProcessor, ProcessorEvent, ProcessorName } from './types';
export { ProcessorUnavailableError, WebhookSignatureError } from './types';

let cached: { from: Settings; processor: PaymentProcessor } | undefined;

export function paymentProcessor(): PaymentProcessor {
  const current = settings();
  if (cached?.from !== current) {
    const { stripeSecretKey, stripeWebhookSecret } = current;
    cached = { from: current, processor: stripeSecretKey ? new StripeProcessor(stripeSecretKey, stripeWebhookSecret ?? undefined) : new TestModeProcessor() };
  }
  return cached.processor;
}
