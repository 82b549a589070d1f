import { endpoint } from '@/lib/api/endpoint';
import { rotateAccessToken } from '@/lib/tokens/access-tokens';
import { accessTokenEndpoints } from '@/lib/tokens/endpoints';

// POST /v1/access-tokens/:id/rotate — dashboard session only; same label and creation date
export const POST = endpoint(accessTokenEndpoints.rotateAccessToken, (ctx) => rotateAccessToken(ctx.user.id, ctx.params.id));
