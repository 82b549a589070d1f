import { api } from '@/lib/api/handler';
import { listSessionsQuery } from '@/lib/sessions/schemas';
import { listSessions } from '@/lib/sessions/sessions';

// GET /v1/sessions — workspace-wide session history, newest first, with the spec's filters
export const GET = api({ counted: true, router: true, query: listSessionsQuery }, (ctx) => listSessions(ctx.workspace.id, ctx.router.id, ctx.query));
