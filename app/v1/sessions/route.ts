import { endpoint } from '@/lib/api/endpoint';
import { sessionEndpoints } from '@/lib/sessions/endpoints';
import { listSessions } from '@/lib/sessions/sessions';

// GET /v1/sessions — workspace-wide session history, newest first, with the spec's filters
export const GET = endpoint(sessionEndpoints.listSessions, (ctx) => listSessions(ctx.workspace.id, ctx.router.id, ctx.query));
