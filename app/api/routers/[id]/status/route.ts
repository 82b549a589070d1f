import { endpoint } from '@/lib/api/endpoint';
import { resolveRouter } from '@/lib/api/resolve';
import { readProxyStatus } from '@/lib/proxy-client/status';
import { routerDashboardEndpoints } from '@/lib/routers/endpoints';

// GET /api/routers/:id/status — any member; the live state of the router's providers (healthy,
// active sessions, cooldown) as the proxy sees it. Dashboard only: the Providers tab polls it.
export const GET = endpoint(routerDashboardEndpoints.getRouterLiveStatus, async (ctx) => {
  const router = await resolveRouter(ctx.workspace, ctx.user, ctx.via, ctx.params.id);
  return readProxyStatus(router.id);
});
