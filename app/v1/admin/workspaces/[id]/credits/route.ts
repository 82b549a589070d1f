import { operatorEndpoints } from '@/lib/admin/endpoints';
import { grantWorkspaceCredits } from '@/lib/admin/workspaces';
import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';

// POST /v1/admin/workspaces/:id/credits — the instance operator grants credits (a `grant` ledger entry); 201
export const POST = endpoint(operatorEndpoints.grantCredits, async (ctx) => created(await grantWorkspaceCredits(ctx.params.id, ctx.body, ctx.user)));
