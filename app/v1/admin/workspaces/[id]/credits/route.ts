import { api, created } from '@/lib/api/handler';
import { grantCreditsSchema } from '@/lib/admin/schemas';
import { grantWorkspaceCredits, requireOperator } from '@/lib/admin/workspaces';

// POST /v1/admin/workspaces/:id/credits — the instance operator grants credits (a `grant` ledger entry); 201
export const POST = api({ workspace: 'none', body: grantCreditsSchema }, async (ctx) => {
  await requireOperator(ctx.user);
  return created(await grantWorkspaceCredits(ctx.params.id!, ctx.body, ctx.user));
});
