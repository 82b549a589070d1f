import { endpoint } from '@/lib/api/endpoint';
import { webhookEndpoints } from '@/lib/webhooks/endpoints';
import { sendTestDelivery } from '@/lib/webhooks/test-webhook';

// POST /v1/webhooks/:id/test — owner/admin; one webhook.test event, no retries; { delivered, attempts }
export const POST = endpoint(webhookEndpoints.testWebhook, (ctx) => sendTestDelivery(ctx.workspace.id, ctx.params.id));
