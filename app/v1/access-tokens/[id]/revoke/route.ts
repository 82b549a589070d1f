import { api } from '@/lib/api/handler';
import { revokeAccessToken } from '@/lib/tokens/access-tokens';

// POST /v1/access-tokens/:id/revoke — dashboard session only; the token stays listed
export const POST = api({ workspace: 'none', cookieOnly: true }, (ctx) => revokeAccessToken(ctx.user.id, ctx.params.id!));
