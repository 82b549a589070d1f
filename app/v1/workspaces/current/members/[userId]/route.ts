import { endpoint } from '@/lib/api/endpoint';
import { workspaceEndpoints } from '@/lib/workspaces/endpoints';
import { removeMember } from '@/lib/workspaces/workspaces';

// DELETE /v1/workspaces/current/members/:userId — owner/admin, dashboard session only
export const DELETE = endpoint(workspaceEndpoints.removeMember, (ctx) => removeMember(ctx.workspace, ctx.user.id, ctx.params.userId));
