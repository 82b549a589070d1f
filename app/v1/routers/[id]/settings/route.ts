import { api } from '@/lib/api/handler';
import { getRouterSettings, updateRouterSettings } from '@/lib/routers/manage-routers';
import { updateRouterSettingsSchema } from '@/lib/routers/schemas';

// GET /v1/routers/:id/settings — the four switches
export const GET = api({ counted: true }, (ctx) => getRouterSettings(ctx.workspace.id, ctx.params.id!));

// PATCH /v1/routers/:id/settings — owner/admin; any subset of the four booleans
export const PATCH = api({ counted: true, role: 'admin', body: updateRouterSettingsSchema }, (ctx) => updateRouterSettings(ctx.workspace.id, ctx.params.id!, ctx.body));
