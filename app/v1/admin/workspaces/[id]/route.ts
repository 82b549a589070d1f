import { api } from '@/lib/api/handler';
import { updateWorkspaceSchema } from '@/lib/admin/schemas';
import { requireOperator, updateWorkspace } from '@/lib/admin/workspaces';

// PATCH /v1/admin/workspaces/:id — the instance operator sets enterprise (and the plan) or suspends
export const PATCH = api({ workspace: 'none', body: updateWorkspaceSchema }, async (ctx) => {
  await requireOperator(ctx.user);
  return updateWorkspace(ctx.params.id!, ctx.body, ctx.user);
});
