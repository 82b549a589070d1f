import { api } from '@/lib/api/handler';
import { getAgentSettings, updateAgentSettings } from '@/lib/routers/manage-routers';
import { updateAgentSettingsSchema } from '@/lib/routers/schemas';

// GET /v1/routers/:id/agent-settings — defaults for browsers chat agents open
export const GET = api({ counted: true }, (ctx) => getAgentSettings(ctx.workspace.id, ctx.params.id!));

// PATCH /v1/routers/:id/agent-settings — owner/admin; defaultProfile must exist or be null
export const PATCH = api({ counted: true, role: 'admin', body: updateAgentSettingsSchema }, (ctx) => updateAgentSettings(ctx.workspace.id, ctx.params.id!, ctx.body));
