import { api } from '@/lib/api/handler';
import { sendTestDelivery } from '@/lib/webhooks/test-webhook';

// POST /v1/webhooks/:id/test — owner/admin; one webhook.test event, no retries; { delivered, attempts }
export const POST = api({ counted: true, role: 'admin' }, (ctx) => sendTestDelivery(ctx.workspace.id, ctx.params.id!));
