import { api } from '@/lib/api/handler';
import { listOperatorActions } from '@/lib/admin/actions';
import { listActionsQuery } from '@/lib/admin/schemas';
import { requireOperator } from '@/lib/admin/workspaces';

// GET /v1/admin/actions?workspaceId=&page=&pageSize= — the operator's audit log, newest first
export const GET = api({ workspace: 'none', query: listActionsQuery }, async (ctx) => {
  await requireOperator(ctx.user);
  return listOperatorActions(ctx.query);
});
