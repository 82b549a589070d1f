import { api } from '@/lib/api/handler';
import { getSession } from '@/lib/sessions/sessions';

// GET /v1/sessions/:id — one session plus hasReplay
export const GET = api({ counted: true }, (ctx) => getSession(ctx.workspace.id, ctx.params.id!));
