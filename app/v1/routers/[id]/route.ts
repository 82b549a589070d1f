import { api } from '@/lib/api/handler';
import { getRouterOrThrow } from '@/lib/routers/read-routers';

// GET /v1/routers/:id — one router
export const GET = api({ counted: true }, (ctx) => getRouterOrThrow(ctx.workspace.id, ctx.params.id!));
