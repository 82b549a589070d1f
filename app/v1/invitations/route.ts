import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';
import { createInvitation, listInvitations } from '@/lib/invitations/manage-invitations';
import { accountOps } from '@/lib/openapi/operations/accounts';

// GET /v1/invitations — pending invitations of the workspace
export const GET = endpoint(accountOps.listInvitations, (ctx) => listInvitations(ctx.workspace.id));

// POST /v1/invitations — owner/admin, dashboard session only; sends the e-mail
export const POST = endpoint(accountOps.createInvitation, async (ctx) =>
  created(await createInvitation(ctx.workspace, ctx.user, ctx.body)),
);
