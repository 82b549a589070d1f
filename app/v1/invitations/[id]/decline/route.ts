import { endpoint } from '@/lib/api/endpoint';
import { declineInvitation } from '@/lib/invitations/respond-to-invitation';
import { accountOps } from '@/lib/openapi/operations/accounts';

// POST /v1/invitations/:token/decline — the invited user, signed in with the invited address
export const POST = endpoint(accountOps.declineInvitation, (ctx) => declineInvitation(ctx.params.id, ctx.user));
