import { api } from '@/lib/api/handler';
import { setActiveRouter } from '@/lib/routers/read-routers';
import { setActiveRouterSchema } from '@/lib/workspaces/schemas';

// POST /v1/routers/active — the router the dashboard opens (bearer calls use X-Router-Id)
export const POST = api({ counted: true, body: setActiveRouterSchema }, (ctx) => setActiveRouter(ctx.user.id, ctx.workspace.id, ctx.body.routerInstanceId));
