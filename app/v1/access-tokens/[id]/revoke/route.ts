import { endpoint } from '@/lib/api/endpoint';
import { accountOps } from '@/lib/openapi/operations/accounts';
import { revokeAccessToken } from '@/lib/tokens/access-tokens';

// POST /v1/access-tokens/:id/revoke — dashboard session only; the token stays listed
export const POST = endpoint(accountOps.revokeAccessToken, (ctx) => revokeAccessToken(ctx.user.id, ctx.params.id));
