import { api } from '@/lib/api/handler';
import { acceptInvitation } from '@/lib/invitations/respond-to-invitation';

// POST /v1/invitations/:token/accept — the invited user, signed in with the invited address
export const POST = api({ workspace: 'none' }, (ctx) => acceptInvitation(ctx.params.id!, ctx.user));
