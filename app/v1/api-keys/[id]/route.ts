import { endpoint } from '@/lib/api/endpoint';
import { getRouterKey, revokeRouterKey } from '@/lib/keys/manage-router-keys';
import { routerOps } from '@/lib/openapi/operations/routers';

// GET /v1/api-keys/:id — one key of the workspace
export const GET = endpoint(routerOps.getRouterKey, (ctx) => getRouterKey(ctx.workspace.id, ctx.params.id));

// DELETE /v1/api-keys/:id — owner/admin; revokes the key immediately (it stays listed)
export const DELETE = endpoint(routerOps.revokeRouterKey, (ctx) => revokeRouterKey(ctx.workspace.id, ctx.params.id));
