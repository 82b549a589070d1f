// Routers, their switches and agent defaults (docs/api.md: Routers).
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { z } from 'zod';
import { byId, operation } from '../openapi/operation';
import { ex, list } from '../openapi/resources/common';
import { agentSettings, router, routerCreated, routerSettings } from '../openapi/resources/routers';
import { setActiveRouterSchema } from '../workspaces/schemas';
import { createRouterSchema, updateAgentSettingsSchema, updateRouterSchema, updateRouterSettingsSchema } from './schemas';

const common = { tag: 'Routers', auth: 'account', counted: true } as const;
const routerId = { id: 'the router id' };

export const routerEndpoints = byId([
  operation({
    ...common,
    method: 'get',
    path: '/v1/routers',
    operationId: 'listRouters',
    summary: 'Routers of the workspace',
    responses: { 200: { description: 'Every router, oldest first', schema: list(router) } },
  }),
  operation({
    ...common,
    method: 'post',
    path: '/v1/routers',
    operationId: 'createRouter',
    role: 'admin',
    summary: 'Create a router',
    description: 'The slug is derived from the name when left out. A first router key is made with it, its plaintext in this answer only.',
    body: createRouterSchema,
    bodyExample: { name: 'Scrapers', slug: 'scrapers', description: 'Nightly crawls' },
    errors: ['conflict', 'fair_use_limit_reached'],
    responses: { 201: { description: 'The router with its first key', schema: routerCreated } },
  }),
  operation({
    ...common,
    method: 'post',
    path: '/v1/routers/active',
    operationId: 'setActiveRouter',
    summary: 'Choose the router the dashboard opens',
    description: 'Bearer calls pick a router with `X-Router-Id`.',
    body: setActiveRouterSchema,
    bodyExample: { routerInstanceId: ex.routerId },
    responses: { 200: { description: 'The active router', schema: z.object({ activeRouterInstanceId: z.string() }) } },
  }),
  operation({
    ...common,
    method: 'get',
    path: '/v1/routers/{id}',
    operationId: 'getRouter',
    params: routerId,
    summary: 'One router',
    responses: { 200: { description: 'The router', schema: router } },
  }),
  operation({
    ...common,
    method: 'patch',
    path: '/v1/routers/{id}',
    operationId: 'updateRouter',
    role: 'admin',
    params: routerId,
    summary: "Change a router's name, strategy or settings",
    description:
      'Any subset of the fields. A changed setting applies to new connections; `traceRedactNames` (header and query-parameter names, up to 50) to the traces of new sessions.',
    body: updateRouterSchema,
    bodyExample: { strategy: 'priority-chain', connectionTimeoutMs: 10_000 },
    responses: { 200: { description: 'The whole router', schema: router } },
  }),
  operation({
    ...common,
    method: 'delete',
    path: '/v1/routers/{id}',
    operationId: 'deleteRouter',
    role: 'admin',
    params: routerId,
    summary: 'Delete a router',
    description: 'Its providers, keys and chat link go with it; session history stays.',
    errors: ['last_router'],
    responses: { 200: { description: 'Deleted', schema: z.object({ id: z.string(), slug: z.string() }) } },
  }),
  operation({
    ...common,
    method: 'get',
    path: '/v1/routers/{id}/settings',
    operationId: 'getRouterSettings',
    params: routerId,
    summary: "A router's four switches",
    responses: { 200: { description: 'The switches', schema: routerSettings } },
  }),
  operation({
    ...common,
    method: 'patch',
    path: '/v1/routers/{id}/settings',
    operationId: 'updateRouterSettings',
    role: 'admin',
    params: routerId,
    summary: "Turn a router's webhooks, profiles, recording or traces on or off",
    body: updateRouterSettingsSchema,
    bodyExample: { replayEnabled: false },
    responses: { 200: { description: 'The switches', schema: routerSettings } },
  }),
  operation({
    ...common,
    method: 'get',
    path: '/v1/routers/{id}/agent-settings',
    operationId: 'getAgentSettings',
    params: routerId,
    summary: 'What chat-agent browsers get when they ask for nothing',
    responses: { 200: { description: 'The agent defaults', schema: agentSettings } },
  }),
  operation({
    ...common,
    method: 'patch',
    path: '/v1/routers/{id}/agent-settings',
    operationId: 'updateAgentSettings',
    role: 'admin',
    params: routerId,
    summary: "Change a router's agent defaults",
    description: '`defaultProfile` must name a profile of the workspace, or be null.',
    body: updateAgentSettingsSchema,
    bodyExample: { recordDefault: true, defaultProfile: 'shop-login' },
    responses: { 200: { description: 'The agent defaults', schema: agentSettings } },
  }),
]);

const DASHBOARD = 'Dashboard';

/** The dashboard's own endpoints under /api: served like the API's, outside its document (lib/openapi/operations.ts). */
export const routerDashboardEndpoints = byId([
  operation({
    method: 'get',
    path: '/api/routers/{id}/status',
    operationId: 'getRouterLiveStatus',
    tag: DASHBOARD,
    auth: 'account',
    summary: "The live state of the router's providers as the proxy sees it (the Providers tab polls it)",
    responses: { 200: { description: 'The live state' } },
  }),
]);
