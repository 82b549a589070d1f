import { api } from '@/lib/api/handler';
import { leaveWorkspace } from '@/lib/workspaces/workspaces';

// POST /v1/workspaces/current/leave — any member except the owner
export const POST = api({}, (ctx) => leaveWorkspace(ctx.user.id, ctx.workspace));
