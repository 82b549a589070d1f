import { endpoint } from '@/lib/api/endpoint';
import { invitationEndpoints } from '@/lib/invitations/endpoints';
import { declineInvitation } from '@/lib/invitations/respond-to-invitation';

// POST /v1/invitations/:token/decline — the invited user, signed in with the invited address
export const POST = endpoint(invitationEndpoints.declineInvitation, (ctx) => declineInvitation(ctx.params.id, ctx.user));
