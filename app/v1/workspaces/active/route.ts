import { endpoint } from '@/lib/api/endpoint';
import { accountOps } from '@/lib/openapi/operations/accounts';
import { setActiveWorkspace } from '@/lib/workspaces/workspaces';

// POST /v1/workspaces/active — the workspace the dashboard opens (bearer calls ignore it)
export const POST = endpoint(accountOps.setActiveWorkspace, (ctx) => setActiveWorkspace(ctx.user.id, ctx.body.workspaceId));
