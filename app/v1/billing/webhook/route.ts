import { api } from '@/lib/api/handler';
import { readWebhookBody } from '@/lib/billing/webhook-body';
import { paymentProcessor } from '@/lib/billing/processors';
import { handleWebhook } from '@/lib/billing/webhook';

// POST /v1/billing/webhook — the payment processor's deliveries; no credentials, the signature of
// the raw body is the authentication (docs/billing-payments.md)
export const POST = api({ auth: 'none', workspace: 'none', errors: 'billing' }, async (ctx) =>
  handleWebhook(paymentProcessor(), await readWebhookBody(ctx.req), ctx.req.headers),
);
