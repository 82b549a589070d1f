import { endpoint } from '@/lib/api/endpoint';
import { accountOps } from '@/lib/openapi/operations/accounts';
import { leaveWorkspace } from '@/lib/workspaces/workspaces';

// POST /v1/workspaces/current/leave — any member except the owner
export const POST = endpoint(accountOps.leaveWorkspace, (ctx) => leaveWorkspace(ctx.user.id, ctx.workspace));
