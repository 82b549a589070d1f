import { endpoint } from '@/lib/api/endpoint';
import { routerEndpoints } from '@/lib/routers/endpoints';
import { getRouterSettings, updateRouterSettings } from '@/lib/routers/manage-routers';

// GET /v1/routers/:id/settings — the four switches
export const GET = endpoint(routerEndpoints.getRouterSettings, (ctx) => getRouterSettings(ctx.workspace.id, ctx.params.id));

// PATCH /v1/routers/:id/settings — owner/admin; any subset of the four booleans
export const PATCH = endpoint(routerEndpoints.updateRouterSettings, (ctx) => updateRouterSettings(ctx.workspace.id, ctx.params.id, ctx.body));
