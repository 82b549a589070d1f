import { endpoint } from '@/lib/api/endpoint';
import { billingEndpoints } from '@/lib/billing/endpoints';
import { paymentProcessor } from '@/lib/billing/processors';
import { handleWebhook } from '@/lib/billing/webhook';
import { readWebhookBody } from '@/lib/billing/webhook-body';

// POST /v1/billing/webhook — the payment processor's deliveries; no credentials, the signature of
// the raw body is the authentication (docs/billing-payments.md)
export const POST = endpoint(billingEndpoints.billingWebhook, async (ctx) =>
  handleWebhook(paymentProcessor(), await readWebhookBody(ctx.req), ctx.req.headers),
);
