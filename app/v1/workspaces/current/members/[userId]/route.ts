import { endpoint } from '@/lib/api/endpoint';
import { accountOps } from '@/lib/openapi/operations/accounts';
import { removeMember } from '@/lib/workspaces/workspaces';

// DELETE /v1/workspaces/current/members/:userId — owner/admin, dashboard session only
export const DELETE = endpoint(accountOps.removeMember, (ctx) => removeMember(ctx.workspace, ctx.user.id, ctx.params.userId));
