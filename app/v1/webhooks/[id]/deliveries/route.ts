import { endpoint } from '@/lib/api/endpoint';
import { webhookOps } from '@/lib/openapi/operations/webhooks';
import { listDeliveryAttempts } from '@/lib/webhooks/delivery-log';

// GET /v1/webhooks/:id/deliveries — beyond the spec: the delivery log (recent attempts, newest first)
export const GET = endpoint(webhookOps.listWebhookDeliveries, (ctx) => listDeliveryAttempts(ctx.workspace.id, ctx.params.id, ctx.query));
