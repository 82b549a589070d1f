import { api, created } from '@/lib/api/handler';
import { createInvitationSchema } from '@/lib/invitations/schemas';
import { createInvitation, listInvitations } from '@/lib/invitations/manage-invitations';

// GET /v1/invitations — pending invitations of the workspace
export const GET = api({}, (ctx) => listInvitations(ctx.workspace.id));

// POST /v1/invitations — owner/admin, dashboard session only; sends the e-mail
export const POST = api({ role: 'admin', cookieOnly: true, body: createInvitationSchema }, async (ctx) =>
  created(await createInvitation(ctx.workspace, ctx.user, ctx.body)),
);
