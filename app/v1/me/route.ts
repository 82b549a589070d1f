import { endpoint } from '@/lib/api/endpoint';
import { accountOps } from '@/lib/openapi/operations/accounts';
import { getMe } from '@/lib/users/get-me';

// GET /v1/me — the caller, their workspaces and the active workspace and router
export const GET = endpoint(accountOps.getMe, (ctx) => getMe(ctx.user, ctx.via, ctx.workspace));
