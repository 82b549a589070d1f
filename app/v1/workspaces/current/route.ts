import { endpoint } from '@/lib/api/endpoint';
import { workspaceEndpoints } from '@/lib/workspaces/endpoints';
import { deleteWorkspace } from '@/lib/workspaces/workspaces';

// DELETE /v1/workspaces/current — owner, dashboard session only; body { confirm: <slug> }
export const DELETE = endpoint(workspaceEndpoints.deleteWorkspace, (ctx) => deleteWorkspace(ctx.workspace, ctx.body.confirm));
