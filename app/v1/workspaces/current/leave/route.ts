import { endpoint } from '@/lib/api/endpoint';
import { workspaceEndpoints } from '@/lib/workspaces/endpoints';
import { leaveWorkspace } from '@/lib/workspaces/workspaces';

// POST /v1/workspaces/current/leave — any member except the owner
export const POST = endpoint(workspaceEndpoints.leaveWorkspace, (ctx) => leaveWorkspace(ctx.user.id, ctx.workspace));
