import { api } from '@/lib/api/handler';
import { lookupInvitation } from '@/lib/invitations/respond-to-invitation';

// GET /v1/invitations/:token/lookup — anyone with the link
export const GET = api({ auth: 'optional', workspace: 'none' }, (ctx) => lookupInvitation(ctx.params.id!));
