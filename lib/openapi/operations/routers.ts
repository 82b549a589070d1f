// Routers, their switches and agent defaults, router keys and chat links (docs/api.md: Routers;
// Router keys and chat links).
import { z } from 'zod';
import { createRouterKeySchema, rotateRouterKeysSchema } from '../../keys/schemas';
import { createRouterSchema, updateAgentSettingsSchema, updateRouterSchema, updateRouterSettingsSchema } from '../../routers/schemas';
import { setActiveRouterSchema } from '../../workspaces/schemas';
import { byId, operation } from '../operation';
import { ex, list } from '../resources/common';
import { agentSettings, chatLink, router, routerCreated, routerKey, routerKeyWithPlaintext, routerSettings } from '../resources/routers';

const ROUTERS = 'Routers';
const KEYS = 'Router keys and chat links';
const routerId = { id: 'the router id' };

export const routerOperations = [
  operation({
    method: 'get', path: '/v1/routers', operationId: 'listRouters', tag: ROUTERS, auth: 'account', counted: true,
    summary: 'Routers of the workspace',
    responses: { 200: { description: 'Every router, oldest first', schema: list(router) } },
  }),
  operation({
    method: 'post', path: '/v1/routers', operationId: 'createRouter', tag: ROUTERS, auth: 'account', role: 'admin', counted: true,
    summary: 'Create a router', description: 'The slug is derived from the name when left out. A first router key is made with it, its plaintext in this answer only.',
    body: createRouterSchema, bodyExample: { name: 'Scrapers', slug: 'scrapers', description: 'Nightly crawls' }, errors: ['conflict', 'fair_use_limit_reached'],
    responses: { 201: { description: 'The router with its first key', schema: routerCreated } },
  }),
  operation({
    method: 'post', path: '/v1/routers/active', operationId: 'setActiveRouter', tag: ROUTERS, auth: 'account', counted: true,
    summary: 'Choose the router the dashboard opens', description: 'Bearer calls pick a router with `X-Router-Id`.',
    body: setActiveRouterSchema, bodyExample: { routerInstanceId: ex.routerId },
    responses: { 200: { description: 'The active router', schema: z.object({ activeRouterInstanceId: z.string() }) } },
  }),
  operation({
    method: 'get', path: '/v1/routers/{id}', operationId: 'getRouter', tag: ROUTERS, auth: 'account', counted: true, params: routerId,
    summary: 'One router',
    responses: { 200: { description: 'The router', schema: router } },
  }),
  operation({
    method: 'patch', path: '/v1/routers/{id}', operationId: 'updateRouter', tag: ROUTERS, auth: 'account', role: 'admin', counted: true, params: routerId,
    summary: "Change a router's name, strategy or settings",
    description: 'Any subset of the fields. A changed setting applies to new connections; `traceRedactNames` (header and query-parameter names, up to 50) to the traces of new sessions.',
    body: updateRouterSchema, bodyExample: { strategy: 'priority-chain', connectionTimeoutMs: 10_000 },
    responses: { 200: { description: 'The whole router', schema: router } },
  }),
  operation({
    method: 'delete', path: '/v1/routers/{id}', operationId: 'deleteRouter', tag: ROUTERS, auth: 'account', role: 'admin', counted: true, params: routerId,
    summary: 'Delete a router', description: 'Its providers, keys and chat link go with it; session history stays.', errors: ['last_router'],
    responses: { 200: { description: 'Deleted', schema: z.object({ id: z.string(), slug: z.string() }) } },
  }),
  operation({
    method: 'get', path: '/v1/routers/{id}/settings', operationId: 'getRouterSettings', tag: ROUTERS, auth: 'account', counted: true, params: routerId,
    summary: "A router's four switches",
    responses: { 200: { description: 'The switches', schema: routerSettings } },
  }),
  operation({
    method: 'patch', path: '/v1/routers/{id}/settings', operationId: 'updateRouterSettings', tag: ROUTERS, auth: 'account', role: 'admin', counted: true, params: routerId,
    summary: "Turn a router's webhooks, profiles, recording or traces on or off",
    body: updateRouterSettingsSchema, bodyExample: { replayEnabled: false },
    responses: { 200: { description: 'The switches', schema: routerSettings } },
  }),
  operation({
    method: 'get', path: '/v1/routers/{id}/agent-settings', operationId: 'getAgentSettings', tag: ROUTERS, auth: 'account', counted: true, params: routerId,
    summary: 'What chat-agent browsers get when they ask for nothing',
    responses: { 200: { description: 'The agent defaults', schema: agentSettings } },
  }),
  operation({
    method: 'patch', path: '/v1/routers/{id}/agent-settings', operationId: 'updateAgentSettings', tag: ROUTERS, auth: 'account', role: 'admin', counted: true, params: routerId,
    summary: "Change a router's agent defaults", description: '`defaultProfile` must name a profile of the workspace, or be null.',
    body: updateAgentSettingsSchema, bodyExample: { recordDefault: true, defaultProfile: 'shop-login' },
    responses: { 200: { description: 'The agent defaults', schema: agentSettings } },
  }),

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
];

export const routerOps = byId(routerOperations);
