// Which payment processor this installation uses: Stripe when STRIPE_SECRET_KEY is set, else the
// built-in test mode (docs/billing-payments.md).
import { StripeProcessor } from './stripe';
import { TestModeProcessor } from './test-mode';
import type { PaymentProcessor } from './types';

export type { PaymentProcessor, ProcessorEvent, ProcessorName } from './types';
export { ProcessorUnavailableError, WebhookSignatureError } from './types';

let cached: { key: string; processor: PaymentProcessor } | undefined;

export function paymentProcessor(): PaymentProcessor {
  const secretKey = process.env.STRIPE_SECRET_KEY?.trim() || '';
  const cacheKey = `${secretKey}\n${process.env.STRIPE_WEBHOOK_SECRET ?? ''}\n${process.env.STRIPE_API_BASE ?? ''}`;
  if (cached?.key !== cacheKey) {
    cached = { key: cacheKey, processor: secretKey ? new StripeProcessor(secretKey, process.env.STRIPE_WEBHOOK_SECRET?.trim() || undefined) : new TestModeProcessor() };
  }
  return cached.processor;
}
