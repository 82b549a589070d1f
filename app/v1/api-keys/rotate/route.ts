import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';
import { routerKeyEndpoints } from '@/lib/keys/endpoints';
import { rotateRouterKeys } from '@/lib/keys/manage-router-keys';

// POST /v1/api-keys/rotate — owner/admin; revokes every live key of the router and issues one
export const POST = endpoint(routerKeyEndpoints.rotateRouterKeys, async (ctx) =>
  created(await rotateRouterKeys(ctx.workspace.id, ctx.router.id, ctx.body?.label)),
);
