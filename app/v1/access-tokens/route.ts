import { api, created } from '@/lib/api/handler';
import { createAccessTokenSchema } from '@/lib/tokens/schemas';
import { createAccessToken, listAccessTokens } from '@/lib/tokens/access-tokens';

// GET /v1/access-tokens — the caller's tokens, with the cap of active tokens
export const GET = api({ workspace: 'none' }, (ctx) => listAccessTokens(ctx.user.id));

// POST /v1/access-tokens — dashboard session only; the plaintext is in this response only
export const POST = api({ workspace: 'none', cookieOnly: true, body: createAccessTokenSchema }, async (ctx) =>
  created(await createAccessToken(ctx.user.id, ctx.body.label)),
);
