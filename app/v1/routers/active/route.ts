import { endpoint } from '@/lib/api/endpoint';
import { routerOps } from '@/lib/openapi/operations/routers';
import { setActiveRouter } from '@/lib/routers/read-routers';

// POST /v1/routers/active — the router the dashboard opens (bearer calls use X-Router-Id)
export const POST = endpoint(routerOps.setActiveRouter, (ctx) => setActiveRouter(ctx.user.id, ctx.workspace.id, ctx.body.routerInstanceId));
