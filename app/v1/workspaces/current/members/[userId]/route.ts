import { api } from '@/lib/api/handler';
import { removeMember } from '@/lib/workspaces/workspaces';

// DELETE /v1/workspaces/current/members/:userId — owner/admin, dashboard session only
export const DELETE = api({ role: 'admin', cookieOnly: true }, (ctx) => removeMember(ctx.workspace, ctx.user.id, ctx.params.userId!));
