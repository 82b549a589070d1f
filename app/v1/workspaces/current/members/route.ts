import { endpoint } from '@/lib/api/endpoint';
import { workspaceEndpoints } from '@/lib/workspaces/endpoints';
import { listMembers } from '@/lib/workspaces/workspaces';

// GET /v1/workspaces/current/members — members of the workspace
export const GET = endpoint(workspaceEndpoints.listMembers, (ctx) => listMembers(ctx.workspace.id));
