import { endpoint } from '@/lib/api/endpoint';
import { lookupInvitation } from '@/lib/invitations/respond-to-invitation';
import { accountOps } from '@/lib/openapi/operations/accounts';

// GET /v1/invitations/:token/lookup — anyone with the link
export const GET = endpoint(accountOps.lookupInvitation, (ctx) => lookupInvitation(ctx.params.id));
