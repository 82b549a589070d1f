import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';
import { createAccessToken, listAccessTokens } from '@/lib/tokens/access-tokens';
import { accessTokenEndpoints } from '@/lib/tokens/endpoints';

// GET /v1/access-tokens — the caller's tokens, with the cap of active tokens
export const GET = endpoint(accessTokenEndpoints.listAccessTokens, (ctx) => listAccessTokens(ctx.user.id));

// POST /v1/access-tokens — dashboard session only; the plaintext is in this response only
export const POST = endpoint(accessTokenEndpoints.createAccessToken, async (ctx) => created(await createAccessToken(ctx.user.id, ctx.body.label)));
