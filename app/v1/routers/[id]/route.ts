import { endpoint } from '@/lib/api/endpoint';
import { routerEndpoints } from '@/lib/routers/endpoints';
import { deleteRouter, updateRouter } from '@/lib/routers/manage-routers';
import { getRouterOrThrow } from '@/lib/routers/read-routers';

// GET /v1/routers/:id — one router
export const GET = endpoint(routerEndpoints.getRouter, (ctx) => getRouterOrThrow(ctx.workspace.id, ctx.params.id));

// PATCH /v1/routers/:id — owner/admin; any subset of the settable fields
export const PATCH = endpoint(routerEndpoints.updateRouter, (ctx) => updateRouter(ctx.workspace.id, ctx.params.id, ctx.body));

// DELETE /v1/routers/:id — owner/admin; 409 last_router for the only router
export const DELETE = endpoint(routerEndpoints.deleteRouter, (ctx) => deleteRouter(ctx.workspace.id, ctx.params.id));
