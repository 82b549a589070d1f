import { api } from '@/lib/api/handler';
import { findWorkspacesQuery } from '@/lib/admin/schemas';
import { findWorkspaces, requireOperator } from '@/lib/admin/workspaces';

// GET /v1/admin/workspaces?q=&page=&pageSize= — the instance operator finds workspaces (slug, name, owner e-mail)
export const GET = api({ workspace: 'none', query: findWorkspacesQuery }, async (ctx) => {
  await requireOperator(ctx.user);
  return findWorkspaces(ctx.query);
});
