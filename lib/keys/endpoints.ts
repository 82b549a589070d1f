// Router keys and chat links (docs/api.md: Router keys and chat links).
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { z } from 'zod';
import { byId, operation } from '../openapi/operation';
import { ex, list } from '../openapi/resources/common';
import { chatLink, routerKey, routerKeyWithPlaintext } from '../openapi/resources/routers';
import { createRouterKeySchema, rotateRouterKeysSchema } from './schemas';

const KEYS = 'Router keys and chat links';

export const routerKeyEndpoints = byId([
  operation({
    method: 'get', path: '/v1/api-keys', operationId: 'listRouterKeys', tag: KEYS, auth: 'account', scope: 'router',
    summary: "The router's keys", description: 'Revoked keys stay listed.',
    responses: { 200: { description: 'Live and revoked keys, newest first', schema: list(routerKey) } },
  }),
  operation({
    method: 'post', path: '/v1/api-keys', operationId: 'createRouterKey', tag: KEYS, auth: 'account', scope: 'router', role: 'admin',
    summary: 'Issue a router key', description: 'A router may hold several live keys; a workspace at most 100.',
    body: createRouterKeySchema, bodyExample: { label: 'CI runner', routerInstanceId: ex.routerId }, errors: ['fair_use_limit_reached'],
    responses: { 201: { description: 'The key with its plaintext', schema: routerKeyWithPlaintext } },
  }),
  operation({
    method: 'post', path: '/v1/api-keys/rotate', operationId: 'rotateRouterKeys', tag: KEYS, auth: 'account', scope: 'router', role: 'admin',
    summary: 'Revoke every live key of the router and issue one', description: 'Sessions opened with the revoked keys are closed.',
    body: rotateRouterKeysSchema, bodyOptional: true, bodyExample: { label: 'Rotated key' },
    responses: { 201: { description: 'The new key with its plaintext', schema: routerKeyWithPlaintext } },
  }),
  operation({
    method: 'get', path: '/v1/api-keys/current/plaintext', operationId: 'getCurrentRouterKeyPlaintext', tag: KEYS, auth: 'account', scope: 'router', role: 'admin',
    summary: 'The newest live key of the router, in full',
    responses: { 200: { description: 'The key', schema: z.object({ apiKeyId: z.string(), plaintextKey: z.string() }) } },
  }),
  operation({
    method: 'get', path: '/v1/api-keys/{id}', operationId: 'getRouterKey', tag: KEYS, auth: 'account', params: { id: 'the key id' },
    summary: 'One router key of the workspace',
    responses: { 200: { description: 'The key', schema: routerKey } },
  }),
  operation({
    method: 'delete', path: '/v1/api-keys/{id}', operationId: 'revokeRouterKey', tag: KEYS, auth: 'account', role: 'admin', params: { id: 'the key id' },
    summary: 'Revoke a router key', description: 'Effective on the next connect; its live sessions are closed. It stays listed.',
    responses: { 200: { description: 'The revoked key', schema: routerKey } },
  }),
  operation({
    method: 'get', path: '/v1/mcp-links/current', operationId: 'getChatLink', tag: KEYS, auth: 'account', scope: 'router', role: 'admin',
    summary: "The router's chat link", description: 'The link carries a credential of the MCP endpoint (docs/agents.md).',
    responses: { 200: { description: 'The link, or null when there is none', schema: chatLink.nullable() } },
  }),
  operation({
    method: 'delete', path: '/v1/mcp-links/current', operationId: 'deleteChatLink', tag: KEYS, auth: 'account', scope: 'router', role: 'admin',
    summary: "Remove the router's chat link", description: 'Its MCP sessions and their browsers are closed on every proxy.',
    responses: { 200: { description: 'Removed', schema: z.object({ id: z.string() }) } },
  }),
  operation({
    method: 'post', path: '/v1/mcp-links/rotate', operationId: 'rotateChatLink', tag: KEYS, auth: 'account', scope: 'router', role: 'admin',
    summary: 'Replace the chat link', description: 'A new link with a new id; the old one stops at once (close code 4005).',
    responses: { 201: { description: 'The new link', schema: chatLink } },
  }),
]);
