import { api } from '@/lib/api/handler';
import { getMe } from '@/lib/users/get-me';

// GET /v1/me — the caller, their workspaces and the active workspace and router
export const GET = api({ workspace: 'optional', auth: 'pending-deletion-ok' }, (ctx) => getMe(ctx.user, ctx.via, ctx.maybeWorkspace));
