import { endpoint } from '@/lib/api/endpoint';
import { workspaceEndpoints } from '@/lib/workspaces/endpoints';
import { setActiveWorkspace } from '@/lib/workspaces/workspaces';

// POST /v1/workspaces/active — the workspace the dashboard opens (bearer calls ignore it)
export const POST = endpoint(workspaceEndpoints.setActiveWorkspace, (ctx) => setActiveWorkspace(ctx.user.id, ctx.body.workspaceId));
