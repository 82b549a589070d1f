import { endpoint } from '@/lib/api/endpoint';
import { webhookEndpoints } from '@/lib/webhooks/endpoints';
import { deleteWebhook, updateWebhook } from '@/lib/webhooks/manage-webhooks';
import { getWebhook } from '@/lib/webhooks/read-webhooks';

// GET /v1/webhooks/:id — one webhook
export const GET = endpoint(webhookEndpoints.getWebhook, (ctx) => getWebhook(ctx.workspace.id, ctx.params.id));

// PATCH /v1/webhooks/:id — owner/admin; any subset of label, url, events, routerInstanceId, active
export const PATCH = endpoint(webhookEndpoints.updateWebhook, (ctx) => updateWebhook(ctx.workspace.id, ctx.params.id, ctx.body));

// DELETE /v1/webhooks/:id — owner/admin; { id }
export const DELETE = endpoint(webhookEndpoints.deleteWebhook, (ctx) => deleteWebhook(ctx.workspace.id, ctx.params.id));
