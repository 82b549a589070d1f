import { endpoint } from '@/lib/api/endpoint';
import { invitationEndpoints } from '@/lib/invitations/endpoints';
import { lookupInvitation } from '@/lib/invitations/respond-to-invitation';

// GET /v1/invitations/:token/lookup — anyone with the link
export const GET = endpoint(invitationEndpoints.lookupInvitation, (ctx) => lookupInvitation(ctx.params.id));
