import { endpoint } from '@/lib/api/endpoint';
import { routerOps } from '@/lib/openapi/operations/routers';
import { getRouterSettings, updateRouterSettings } from '@/lib/routers/manage-routers';

// GET /v1/routers/:id/settings — the four switches
export const GET = endpoint(routerOps.getRouterSettings, (ctx) => getRouterSettings(ctx.workspace.id, ctx.params.id));

// PATCH /v1/routers/:id/settings — owner/admin; any subset of the four booleans
export const PATCH = endpoint(routerOps.updateRouterSettings, (ctx) => updateRouterSettings(ctx.workspace.id, ctx.params.id, ctx.body));
