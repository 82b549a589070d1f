import { api } from '@/lib/api/handler';
import { getRouterOrThrow } from '@/lib/routers/read-routers';
import { deleteRouter, updateRouter } from '@/lib/routers/manage-routers';
import { updateRouterSchema } from '@/lib/routers/schemas';

// GET /v1/routers/:id — one router
export const GET = api({ counted: true }, (ctx) => getRouterOrThrow(ctx.workspace.id, ctx.params.id!));

// PATCH /v1/routers/:id — owner/admin; any subset of the settable fields
export const PATCH = api({ counted: true, role: 'admin', body: updateRouterSchema }, (ctx) => updateRouter(ctx.workspace.id, ctx.params.id!, ctx.body));

// DELETE /v1/routers/:id — owner/admin; 409 last_router for the only router
export const DELETE = api({ counted: true, role: 'admin' }, (ctx) => deleteRouter(ctx.workspace.id, ctx.params.id!));
