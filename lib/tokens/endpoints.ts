// Account tokens (docs/api.md: Access tokens and the account).
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { z } from 'zod';
import { byId, operation } from '../openapi/operation';
import { accessToken, accessTokenWithPlaintext } from '../openapi/resources/accounts';
import { count, list } from '../openapi/resources/common';
import { createAccessTokenSchema } from './schemas';

const TOKENS = 'Access tokens and the account';

export const accessTokenEndpoints = byId([
  operation({
    method: 'get',
    path: '/v1/access-tokens',
    operationId: 'listAccessTokens',
    tag: TOKENS,
    auth: 'account',
    scope: 'none',
    summary: "The caller's access tokens",
    responses: { 200: { description: 'Live and revoked tokens, newest first, and the cap of live ones', schema: list(accessToken).extend({ cap: count }) } },
  }),
  operation({
    method: 'post',
    path: '/v1/access-tokens',
    operationId: 'createAccessToken',
    tag: TOKENS,
    auth: 'cookie',
    scope: 'none',
    summary: 'Create an access token',
    description: 'The plaintext is in this answer only. At most 10 live tokens (409 `limit_reached`).',
    body: createAccessTokenSchema,
    bodyExample: { label: 'CI' },
    errors: ['limit_reached'],
    responses: { 201: { description: 'The token with its plaintext', schema: accessTokenWithPlaintext } },
  }),
  operation({
    method: 'delete',
    path: '/v1/access-tokens/{id}',
    operationId: 'deleteAccessToken',
    tag: TOKENS,
    auth: 'cookie',
    scope: 'none',
    summary: 'Delete an access token',
    params: { id: 'the token id' },
    responses: { 200: { description: 'Deleted', schema: z.object({ id: z.string() }) } },
  }),
  operation({
    method: 'post',
    path: '/v1/access-tokens/{id}/revoke',
    operationId: 'revokeAccessToken',
    tag: TOKENS,
    auth: 'cookie',
    scope: 'none',
    summary: 'Revoke an access token',
    description: 'It stays listed, revoked.',
    params: { id: 'the token id' },
    responses: { 200: { description: 'The revoked token', schema: accessToken } },
  }),
  operation({
    method: 'post',
    path: '/v1/access-tokens/{id}/rotate',
    operationId: 'rotateAccessToken',
    tag: TOKENS,
    auth: 'cookie',
    scope: 'none',
    summary: 'Give an access token a new value',
    description: 'Same label and creation date; the old value fails at once.',
    params: { id: 'the token id' },
    errors: ['conflict'],
    responses: { 200: { description: 'The token with its new plaintext', schema: accessTokenWithPlaintext } },
  }),
]);
