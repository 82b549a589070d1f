import { api, created } from '@/lib/api/handler';
import { rotateRouterKeys } from '@/lib/keys/manage-router-keys';
import { rotateRouterKeysSchema } from '@/lib/keys/schemas';

// POST /v1/api-keys/rotate — owner/admin; revokes every live key of the router and issues one
export const POST = api({ router: true, role: 'admin', body: rotateRouterKeysSchema }, async (ctx) => created(await rotateRouterKeys(ctx.workspace.id, ctx.router.id, ctx.body?.label)));
