import { api, created } from '@/lib/api/handler';
import { createWebhook } from '@/lib/webhooks/manage-webhooks';
import { listWebhooks } from '@/lib/webhooks/read-webhooks';
import { createWebhookSchema, listWebhooksQuery } from '@/lib/webhooks/schemas';

// GET /v1/webhooks — webhooks of the workspace, newest first, paged; URLs masked
export const GET = api({ counted: true, query: listWebhooksQuery }, (ctx) => listWebhooks(ctx.workspace.id, ctx.query));

// POST /v1/webhooks — owner/admin; 201 Webhook; events omitted = every event, routerInstanceId null = all routers
export const POST = api({ counted: true, role: 'admin', body: createWebhookSchema }, async (ctx) => created(await createWebhook(ctx.workspace.id, ctx.body)));
