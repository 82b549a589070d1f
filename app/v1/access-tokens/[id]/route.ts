import { endpoint } from '@/lib/api/endpoint';
import { deleteAccessToken } from '@/lib/tokens/access-tokens';
import { accessTokenEndpoints } from '@/lib/tokens/endpoints';

// DELETE /v1/access-tokens/:id — dashboard session only
export const DELETE = endpoint(accessTokenEndpoints.deleteAccessToken, (ctx) => deleteAccessToken(ctx.user.id, ctx.params.id));
