import { endpoint } from '@/lib/api/endpoint';
import { routerEndpoints } from '@/lib/routers/endpoints';
import { setActiveRouter } from '@/lib/routers/read-routers';

// POST /v1/routers/active — the router the dashboard opens (bearer calls use X-Router-Id)
export const POST = endpoint(routerEndpoints.setActiveRouter, (ctx) => setActiveRouter(ctx.user.id, ctx.workspace.id, ctx.body.routerInstanceId));
