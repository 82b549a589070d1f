import { api } from '@/lib/api/handler';
import { getRouterKey, revokeRouterKey } from '@/lib/keys/manage-router-keys';

// GET /v1/api-keys/:id — one key of the workspace
export const GET = api({}, (ctx) => getRouterKey(ctx.workspace.id, ctx.params.id!));

// DELETE /v1/api-keys/:id — owner/admin; revokes the key immediately (it stays listed)
export const DELETE = api({ role: 'admin' }, (ctx) => revokeRouterKey(ctx.workspace.id, ctx.params.id!));
