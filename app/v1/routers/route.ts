import { api, created } from '@/lib/api/handler';
import { listRouters } from '@/lib/routers/read-routers';
import { createRouter } from '@/lib/routers/manage-routers';
import { createRouterSchema } from '@/lib/routers/schemas';

// GET /v1/routers — routers of the workspace
export const GET = api({ counted: true }, (ctx) => listRouters(ctx.workspace.id));

// POST /v1/routers — owner/admin; 201 Router with its first key (`apiKey.plaintextKey`, shown once)
export const POST = api({ counted: true, role: 'admin', body: createRouterSchema }, async (ctx) => created(await createRouter(ctx.workspace.id, ctx.body)));
