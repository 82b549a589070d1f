import { endpoint } from '@/lib/api/endpoint';
import { sessionOps } from '@/lib/openapi/operations/sessions';
import { listSessions } from '@/lib/sessions/sessions';

// GET /v1/sessions — workspace-wide session history, newest first, with the spec's filters
export const GET = endpoint(sessionOps.listSessions, (ctx) => listSessions(ctx.workspace.id, ctx.router.id, ctx.query));
