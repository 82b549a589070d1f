import { api } from '@/lib/api/handler';
import { deleteWebhook, updateWebhook } from '@/lib/webhooks/manage-webhooks';
import { getWebhook } from '@/lib/webhooks/read-webhooks';
import { updateWebhookSchema } from '@/lib/webhooks/schemas';

// GET /v1/webhooks/:id — one webhook
export const GET = api({ counted: true }, (ctx) => getWebhook(ctx.workspace.id, ctx.params.id!));

// PATCH /v1/webhooks/:id — owner/admin; any subset of label, url, events, routerInstanceId, active
export const PATCH = api({ counted: true, role: 'admin', body: updateWebhookSchema }, (ctx) => updateWebhook(ctx.workspace.id, ctx.params.id!, ctx.body));

// DELETE /v1/webhooks/:id — owner/admin; { id }
export const DELETE = api({ counted: true, role: 'admin' }, (ctx) => deleteWebhook(ctx.workspace.id, ctx.params.id!));
