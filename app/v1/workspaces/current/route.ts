import { api } from '@/lib/api/handler';
import { deleteWorkspaceSchema } from '@/lib/workspaces/schemas';
import { deleteWorkspace } from '@/lib/workspaces/workspaces';

// DELETE /v1/workspaces/current — owner, dashboard session only; body { confirm: <slug> }
export const DELETE = api({ role: 'owner', cookieOnly: true, body: deleteWorkspaceSchema }, (ctx) => deleteWorkspace(ctx.workspace, ctx.body.confirm));
