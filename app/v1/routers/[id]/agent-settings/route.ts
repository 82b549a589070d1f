import { endpoint } from '@/lib/api/endpoint';
import { routerEndpoints } from '@/lib/routers/endpoints';
import { getAgentSettings, updateAgentSettings } from '@/lib/routers/manage-routers';

// GET /v1/routers/:id/agent-settings — defaults for browsers chat agents open
export const GET = endpoint(routerEndpoints.getAgentSettings, (ctx) => getAgentSettings(ctx.workspace.id, ctx.params.id));

// PATCH /v1/routers/:id/agent-settings — owner/admin; defaultProfile must exist or be null
export const PATCH = endpoint(routerEndpoints.updateAgentSettings, (ctx) => updateAgentSettings(ctx.workspace.id, ctx.params.id, ctx.body));
