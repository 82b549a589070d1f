import { endpoint } from '@/lib/api/endpoint';
import { listDeliveryAttempts } from '@/lib/webhooks/delivery-log';
import { webhookEndpoints } from '@/lib/webhooks/endpoints';

// GET /v1/webhooks/:id/deliveries — beyond the spec: the delivery log (recent attempts, newest first)
export const GET = endpoint(webhookEndpoints.listWebhookDeliveries, (ctx) => listDeliveryAttempts(ctx.workspace.id, ctx.params.id, ctx.query));
