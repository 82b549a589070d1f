import { api } from '@/lib/api/handler';
import { rotateAccessToken } from '@/lib/tokens/access-tokens';

// POST /v1/access-tokens/:id/rotate — dashboard session only; same label and creation date
export const POST = api({ workspace: 'none', cookieOnly: true }, (ctx) => rotateAccessToken(ctx.user.id, ctx.params.id!));
