import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';
import { routerEndpoints } from '@/lib/routers/endpoints';
import { createRouter } from '@/lib/routers/manage-routers';
import { listRouters } from '@/lib/routers/read-routers';

// GET /v1/routers — routers of the workspace
export const GET = endpoint(routerEndpoints.listRouters, (ctx) => listRouters(ctx.workspace.id));

// POST /v1/routers — owner/admin; 201 Router with its first key (`apiKey.plaintextKey`, shown once)
export const POST = endpoint(routerEndpoints.createRouter, async (ctx) => created(await createRouter(ctx.workspace.id, ctx.body)));
