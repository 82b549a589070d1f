import { endpoint } from '@/lib/api/endpoint';
import { invitationEndpoints } from '@/lib/invitations/endpoints';
import { acceptInvitation } from '@/lib/invitations/respond-to-invitation';

// POST /v1/invitations/:token/accept — the invited user, signed in with the invited address
export const POST = endpoint(invitationEndpoints.acceptInvitation, (ctx) => acceptInvitation(ctx.params.id, ctx.user));
