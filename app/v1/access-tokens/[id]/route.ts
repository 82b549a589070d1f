import { api } from '@/lib/api/handler';
import { deleteAccessToken } from '@/lib/tokens/access-tokens';

// DELETE /v1/access-tokens/:id — dashboard session only
export const DELETE = api({ workspace: 'none', cookieOnly: true }, (ctx) => deleteAccessToken(ctx.user.id, ctx.params.id!));
