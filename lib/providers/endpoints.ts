// Providers of a router (docs/api.md, Providers). Every call acts on the router from X-Router-Id
// (or `routerInstanceId`), else the caller's active or first router.
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { z } from 'zod';
import { byId, operation } from '../openapi/operation';
import { paged } from '../openapi/resources/common';
import { probeResult, provider, providerPlaintext, testOutcome, verifiedKey } from '../openapi/resources/providers';
import { addressCheckSchema, createProviderSchema, listProvidersQuerySchema, updateProviderSchema, verifyKeySchema } from './schemas';

const TAG = 'Providers';
const slug = { slug: "the provider's slug on the router" };
const common = { tag: TAG, auth: 'account', scope: 'router', counted: true } as const;

export const providerEndpoints = byId([
  operation({
    ...common,
    method: 'get',
    path: '/v1/providers',
    operationId: 'listProviders',
    summary: "The router's providers",
    query: listProvidersQuerySchema,
    responses: { 200: { description: 'One page of providers, oldest first', schema: paged(provider) } },
  }),
  operation({
    ...common,
    method: 'post',
    path: '/v1/providers',
    operationId: 'createProvider',
    role: 'admin',
    summary: 'Add a provider',
    description:
      'The address form (`url`, `headers`) or the key form (`adapterKind`, `credentials`, `options`): the key form when `adapterKind` or `credentials` is present. ' +
      'An address is tested and probed before it is saved; a key is checked with the vendor without starting a paid browser.',
    body: createProviderSchema,
    bodyExample: { slug: 'local-chrome', name: 'Local Chrome', url: 'ws://127.0.0.1:9222/devtools/browser/6c1f', maxConcurrent: 4 },
    errors: ['conflict', 'provider_unreachable', 'provider_rejected_key', 'provider_calibrating'],
    responses: { 201: { description: 'The provider', schema: provider } },
  }),
  operation({
    ...common,
    method: 'post',
    path: '/v1/providers/verify-key',
    operationId: 'verifyProviderKey',
    role: 'admin',
    summary: "Check a vendor's API key without starting a browser",
    body: verifyKeySchema,
    bodyExample: { adapterKind: 'adapter-two', credentials: { apiKey: 'sk_live_…' }, options: { timeoutMinutes: 60 } },
    errors: ['provider_rejected_key', 'provider_unreachable'],
    responses: { 200: { description: 'The key works', schema: verifiedKey } },
  }),
  operation({
    ...common,
    method: 'post',
    path: '/v1/providers/test-url',
    operationId: 'testProviderUrl',
    role: 'admin',
    summary: 'Test an address before adding it',
    description: 'Answered like a provider test: 200 either way.',
    body: addressCheckSchema,
    bodyExample: { url: 'wss://browsers.example.com/chrome', headers: { Authorization: 'Bearer …' } },
    errors: ['provider_calibrating'],
    responses: { 200: { description: 'The outcome', schema: testOutcome } },
  }),
  operation({
    ...common,
    method: 'post',
    path: '/v1/providers/probe',
    operationId: 'probeProviderUrl',
    role: 'admin',
    summary: 'Which kind of provider answers at an address',
    body: addressCheckSchema,
    bodyExample: { url: 'http://127.0.0.1:9600' },
    responses: { 200: { description: 'What answered', schema: probeResult } },
  }),
  operation({
    ...common,
    method: 'get',
    path: '/v1/providers/{slug}',
    operationId: 'getProvider',
    params: slug,
    summary: 'One provider',
    responses: { 200: { description: 'The provider', schema: provider } },
  }),
  operation({
    ...common,
    method: 'patch',
    path: '/v1/providers/{slug}',
    operationId: 'updateProvider',
    role: 'admin',
    params: slug,
    summary: 'Change a provider',
    description:
      'Any subset. `profile: null` unpins; a new `url` is tested again; `url` and `headers` are refused on key-based providers; `enabled: false` takes it out of routing.',
    body: updateProviderSchema,
    bodyExample: { priority: 10, enabled: true },
    errors: ['provider_unreachable', 'provider_calibrating'],
    responses: { 200: { description: 'The provider', schema: provider } },
  }),
  operation({
    ...common,
    method: 'delete',
    path: '/v1/providers/{slug}',
    operationId: 'deleteProvider',
    role: 'admin',
    params: slug,
    summary: 'Remove a provider',
    description: 'Running sessions on it go on.',
    responses: { 200: { description: 'Removed', schema: z.object({ slug: z.string() }) } },
  }),
  operation({
    ...common,
    method: 'get',
    path: '/v1/providers/{slug}/plaintext',
    operationId: 'getProviderPlaintext',
    role: 'admin',
    params: slug,
    summary: "A provider's stored address and headers in full",
    description: 'Credentials included; null for a key-based provider.',
    responses: { 200: { description: 'The address and headers', schema: providerPlaintext } },
  }),
  operation({
    ...common,
    method: 'post',
    path: '/v1/providers/{slug}/test',
    operationId: 'testProvider',
    role: 'admin',
    params: slug,
    summary: 'Test a provider',
    description: 'Opens a browser connection; a key-based provider has its key checked instead. 200 either way.',
    errors: ['provider_calibrating'],
    responses: { 200: { description: 'The outcome', schema: testOutcome } },
  }),
  operation({
    ...common,
    method: 'post',
    path: '/v1/providers/{slug}/reprobe',
    operationId: 'reprobeProvider',
    role: 'admin',
    params: slug,
    summary: "Probe a provider's capabilities again",
    description: 'Address-based providers only (a probe would start a billed vendor browser).',
    errors: ['provider_unreachable', 'provider_calibrating'],
    responses: { 200: { description: 'The provider with what the probe found', schema: provider } },
  }),
]);
