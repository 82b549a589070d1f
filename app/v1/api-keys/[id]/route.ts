import { endpoint } from '@/lib/api/endpoint';
import { routerKeyEndpoints } from '@/lib/keys/endpoints';
import { getRouterKey, revokeRouterKey } from '@/lib/keys/manage-router-keys';

// GET /v1/api-keys/:id — one key of the workspace
export const GET = endpoint(routerKeyEndpoints.getRouterKey, (ctx) => getRouterKey(ctx.workspace.id, ctx.params.id));

// DELETE /v1/api-keys/:id — owner/admin; revokes the key immediately (it stays listed)
export const DELETE = endpoint(routerKeyEndpoints.revokeRouterKey, (ctx) => revokeRouterKey(ctx.workspace.id, ctx.params.id));
