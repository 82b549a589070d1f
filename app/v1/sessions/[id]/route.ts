import { endpoint } from '@/lib/api/endpoint';
import { sessionOps } from '@/lib/openapi/operations/sessions';
import { getSession } from '@/lib/sessions/sessions';

// GET /v1/sessions/:id — one session plus hasReplay
export const GET = endpoint(sessionOps.getSession, (ctx) => getSession(ctx.workspace.id, ctx.params.id));
