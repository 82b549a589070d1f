import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';
import { invitationEndpoints } from '@/lib/invitations/endpoints';
import { createInvitation, listInvitations } from '@/lib/invitations/manage-invitations';

// GET /v1/invitations — pending invitations of the workspace
export const GET = endpoint(invitationEndpoints.listInvitations, (ctx) => listInvitations(ctx.workspace.id));

// POST /v1/invitations — owner/admin, dashboard session only; sends the e-mail
export const POST = endpoint(invitationEndpoints.createInvitation, async (ctx) => created(await createInvitation(ctx.workspace, ctx.user, ctx.body)));
