import { api } from '@/lib/api/handler';
import { declineInvitation } from '@/lib/invitations/respond-to-invitation';

// POST /v1/invitations/:token/decline — the invited user, signed in with the invited address
export const POST = api({ workspace: 'none' }, (ctx) => declineInvitation(ctx.params.id!, ctx.user));
