import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';
import { webhookEndpoints } from '@/lib/webhooks/endpoints';
import { createWebhook } from '@/lib/webhooks/manage-webhooks';
import { listWebhooks } from '@/lib/webhooks/read-webhooks';

// GET /v1/webhooks — webhooks of the workspace, newest first, paged; URLs masked
export const GET = endpoint(webhookEndpoints.listWebhooks, (ctx) => listWebhooks(ctx.workspace.id, ctx.query));

// POST /v1/webhooks — owner/admin; 201 Webhook; events omitted = every event, routerInstanceId null = all routers
export const POST = endpoint(webhookEndpoints.createWebhook, async (ctx) => created(await createWebhook(ctx.workspace.id, ctx.body)));
