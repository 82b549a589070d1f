import { endpoint } from '@/lib/api/endpoint';
import { accountOps } from '@/lib/openapi/operations/accounts';
import { deleteWorkspace } from '@/lib/workspaces/workspaces';

// DELETE /v1/workspaces/current — owner, dashboard session only; body { confirm: <slug> }
export const DELETE = endpoint(accountOps.deleteWorkspace, (ctx) => deleteWorkspace(ctx.workspace, ctx.body.confirm));
