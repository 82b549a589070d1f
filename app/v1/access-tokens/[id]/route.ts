import { endpoint } from '@/lib/api/endpoint';
import { accountOps } from '@/lib/openapi/operations/accounts';
import { deleteAccessToken } from '@/lib/tokens/access-tokens';

// DELETE /v1/access-tokens/:id — dashboard session only
export const DELETE = endpoint(accountOps.deleteAccessToken, (ctx) => deleteAccessToken(ctx.user.id, ctx.params.id));
