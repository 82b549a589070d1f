import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';
import { webhookOps } from '@/lib/openapi/operations/webhooks';
import { createWebhook } from '@/lib/webhooks/manage-webhooks';
import { listWebhooks } from '@/lib/webhooks/read-webhooks';

// GET /v1/webhooks — webhooks of the workspace, newest first, paged; URLs masked
export const GET = endpoint(webhookOps.listWebhooks, (ctx) => listWebhooks(ctx.workspace.id, ctx.query));

// POST /v1/webhooks — owner/admin; 201 Webhook; events omitted = every event, routerInstanceId null = all routers
export const POST = endpoint(webhookOps.createWebhook, async (ctx) => created(await createWebhook(ctx.workspace.id, ctx.body)));
