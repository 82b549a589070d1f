import { endpoint } from '@/lib/api/endpoint';
import { acceptInvitation } from '@/lib/invitations/respond-to-invitation';
import { accountOps } from '@/lib/openapi/operations/accounts';

// POST /v1/invitations/:token/accept — the invited user, signed in with the invited address
export const POST = endpoint(accountOps.acceptInvitation, (ctx) => acceptInvitation(ctx.params.id, ctx.user));
