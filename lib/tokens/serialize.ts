import type { AccessToken } from '../db/generated/client';
import type { z } from 'zod';
import type { accessToken as accessTokenAnswer } from '../openapi/resources/accounts';

export const ACTIVE_TOKEN_CAP = 10;

export function serializeAccessToken(token: AccessToken): z.input<typeof accessTokenAnswer> {
  return {
    id: token.id,
    label: token.label,
    prefix: token.prefix,
    scopes: token.scopes,
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
    createdAt: token.createdAt.toISOString(),
  };
}
