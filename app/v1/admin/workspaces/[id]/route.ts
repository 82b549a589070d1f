import { updateWorkspace } from '@/lib/admin/workspaces';
import { endpoint } from '@/lib/api/endpoint';
import { accountOps } from '@/lib/openapi/operations/accounts';

// PATCH /v1/admin/workspaces/:id — the instance operator sets enterprise (and the plan) or suspends
export const PATCH = endpoint(accountOps.updateWorkspace, (ctx) => updateWorkspace(ctx.params.id, ctx.body, ctx.user));
