import { endpoint } from '@/lib/api/endpoint';
import { accountOps } from '@/lib/openapi/operations/accounts';
import { listMembers } from '@/lib/workspaces/workspaces';

// GET /v1/workspaces/current/members — members of the workspace
export const GET = endpoint(accountOps.listMembers, (ctx) => listMembers(ctx.workspace.id));
