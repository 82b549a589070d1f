import { endpoint } from '@/lib/api/endpoint';
import { accountOps } from '@/lib/openapi/operations/accounts';
import { rotateAccessToken } from '@/lib/tokens/access-tokens';

// POST /v1/access-tokens/:id/rotate — dashboard session only; same label and creation date
export const POST = endpoint(accountOps.rotateAccessToken, (ctx) => rotateAccessToken(ctx.user.id, ctx.params.id));
