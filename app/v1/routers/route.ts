import { api } from '@/lib/api/handler';
import { listRouters } from '@/lib/routers/read-routers';

// GET /v1/routers — routers of the workspace
export const GET = api({ counted: true }, (ctx) => listRouters(ctx.workspace.id));
