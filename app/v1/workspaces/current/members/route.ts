import { api } from '@/lib/api/handler';
import { listMembers } from '@/lib/workspaces/workspaces';

// GET /v1/workspaces/current/members — members of the workspace
export const GET = api({}, (ctx) => listMembers(ctx.workspace.id));
