import { operatorEndpoints } from '@/lib/admin/endpoints';
import { updateWorkspace } from '@/lib/admin/workspaces';
import { endpoint } from '@/lib/api/endpoint';

// PATCH /v1/admin/workspaces/:id — the instance operator sets enterprise (and the plan) or suspends
export const PATCH = endpoint(operatorEndpoints.updateWorkspace, (ctx) => updateWorkspace(ctx.params.id, ctx.body, ctx.user));
