import { api } from '@/lib/api/handler';
import { setActiveWorkspaceSchema } from '@/lib/workspaces/schemas';
import { setActiveWorkspace } from '@/lib/workspaces/workspaces';

// POST /v1/workspaces/active — the workspace the dashboard opens (bearer calls ignore it)
export const POST = api({ workspace: 'none', body: setActiveWorkspaceSchema }, (ctx) => setActiveWorkspace(ctx.user.id, ctx.body.workspaceId));
