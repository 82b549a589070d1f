import { endpoint } from '@/lib/api/endpoint';
import { userEndpoints } from '@/lib/users/endpoints';
import { getMe } from '@/lib/users/get-me';

// GET /v1/me — the caller, their workspaces and the active workspace and router
export const GET = endpoint(userEndpoints.getMe, (ctx) => getMe(ctx.user, ctx.via, ctx.workspace));
