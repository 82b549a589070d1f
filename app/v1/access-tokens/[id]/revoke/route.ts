import { endpoint } from '@/lib/api/endpoint';
import { revokeAccessToken } from '@/lib/tokens/access-tokens';
import { accessTokenEndpoints } from '@/lib/tokens/endpoints';

// POST /v1/access-tokens/:id/revoke — dashboard session only; the token stays listed
export const POST = endpoint(accessTokenEndpoints.revokeAccessToken, (ctx) => revokeAccessToken(ctx.user.id, ctx.params.id));
