import { endpoint } from '@/lib/api/endpoint';
import { sessionEndpoints } from '@/lib/sessions/endpoints';
import { getSession } from '@/lib/sessions/sessions';

// GET /v1/sessions/:id — one session plus hasReplay
export const GET = endpoint(sessionEndpoints.getSession, (ctx) => getSession(ctx.workspace.id, ctx.params.id));
