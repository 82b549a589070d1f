// The proxy's endpoints (docs/connect.md): the connect endpoint, the router status and the data
// API, on the proxy's port with a router key. The route table is lib/data-api/routes.ts.
// Each entry declares one of the proxy's endpoints (served by proxy/routes.ts) for the OpenAPI
// document (lib/openapi/document.ts).
import { z } from 'zod';
import { byId, operation, type ResponseSpec } from '../openapi/operation';
import { contentAnswer, routerStatus, scrapeAnswer } from '../openapi/resources/data-api';
import { dataApiError } from '../openapi/resources/errors';
import { DATA_API_ROUTES } from './routes';

const DATA_API = 'Data API';
const CONNECT = 'Connect';
const common = { auth: 'routerKey', scope: 'none', proxy: true, errorStyle: 'none' } as const;
const mb = (path: keyof typeof DATA_API_ROUTES) => `${DATA_API_ROUTES[path].capBytes / (1024 * 1024)} MB`;
const providerSlug = { 'X-Provider-Slug': { description: 'the provider that served the call' } };

/** The data API's failures (docs/connect.md, Data API, Errors). */
const dataApiFailures: Record<number, ResponseSpec> = {
  400: {
    description: 'Invalid body (`details` names each field); the router has no providers; the pinned provider is not on the router',
    envelope: false,
    schema: dataApiError,
  },
  402: { description: 'The workspace is suspended', envelope: false, schema: dataApiError },
  408: { description: 'The page or the provider connection timed out (the whole call may take `timeout` + 20 s)', envelope: false, schema: dataApiError },
  413: { description: "The request body is over 1 MB, or the answer would exceed the endpoint's cap", envelope: false, schema: dataApiError },
  429: {
    description: "The router's queue timed out (`Retry-After`)",
    envelope: false,
    schema: dataApiError,
    headers: { 'Retry-After': { description: 'seconds', schema: { type: 'integer' } } },
  },
  500: { description: 'The browser action failed', envelope: false, schema: dataApiError },
  503: {
    description: 'No provider available (off, cooling down or full), every provider failed to connect, or the queue is full',
    envelope: false,
    schema: dataApiError,
  },
};

const dataApiCall = (summary: string, description: string) => ({ ...common, tag: DATA_API, summary, description, method: 'post' }) as const;

export const proxyEndpoints = byId([
  operation({
    ...dataApiCall('Screenshot a page', `Navigates a fresh browser context and answers the image bytes (at most ${mb('/v1/screenshot')}).`),
    path: '/v1/screenshot',
    operationId: 'screenshot',
    body: DATA_API_ROUTES['/v1/screenshot'].schema,
    bodyExample: { url: 'https://example.com', fullPage: true, format: 'jpeg', quality: 80 },
    responses: {
      200: {
        description: 'The image',
        envelope: false,
        contentType: 'image/png',
        schema: z.string().meta({ format: 'binary' }),
        headers: {
          ...providerSlug,
          'X-Response-Code': { description: "the page's HTTP status", schema: { type: 'integer' } },
          'X-Response-URL': { description: 'the page address after redirects' },
          'X-Timing-Total-Ms': { description: 'the whole call', schema: { type: 'integer' } },
          'X-Timing-Navigation-Ms': { description: 'the navigation', schema: { type: 'integer' } },
        },
      },
      ...dataApiFailures,
    },
  }),
  operation({
    ...dataApiCall(
      "A page's content as HTML, Markdown, text or its main article",
      `Adds \`formats\` (default \`["markdown"]\`) to the screenshot fields. The answer is at most ${mb('/v1/content')}.`,
    ),
    path: '/v1/content',
    operationId: 'content',
    body: DATA_API_ROUTES['/v1/content'].schema,
    bodyExample: { url: 'https://example.com', formats: ['markdown', 'text'] },
    responses: { 200: { description: 'The content', envelope: false, schema: contentAnswer, headers: providerSlug }, ...dataApiFailures },
  }),
  operation({
    ...dataApiCall(
      'What CSS selectors match on a page',
      `Adds \`selectors\`, \`formats\` and \`screenshot\` to the screenshot fields; \`selectors\` or \`formats\` is required. The answer is at most ${mb('/v1/scrape')}.`,
    ),
    path: '/v1/scrape',
    operationId: 'scrape',
    body: DATA_API_ROUTES['/v1/scrape'].schema,
    bodyExample: {
      url: 'https://example.com',
      selectors: [
        { name: 'title', selector: 'h1' },
        { name: 'links', selector: 'a', attribute: 'href' },
      ],
    },
    responses: { 200: { description: 'What matched', envelope: false, schema: scrapeAnswer, headers: providerSlug }, ...dataApiFailures },
  }),
  operation({
    ...common,
    tag: CONNECT,
    method: 'get',
    path: '/v1/status',
    operationId: 'routerStatus',
    summary: "The router key's providers with their live state",
    responses: { 200: { description: 'The providers', envelope: false, schema: routerStatus } },
  }),
  operation({
    ...common,
    tag: CONNECT,
    method: 'get',
    path: '/v1/connect',
    operationId: 'connect',
    summary: 'Open a browser session (WebSocket upgrade, then CDP)',
    description:
      'A WebSocket endpoint: connect any CDP client to `ws://<proxy>/v1/connect?token=<router key>` (Playwright `chromium.connectOverCDP`, Puppeteer `connect`). ' +
      'On success the `101` carries `X-Session-Id` and `X-Provider`, and the client talks CDP to a browser of that provider. ' +
      'Every refusal comes before the WebSocket opens, as an HTTP status with a plain-text message. A request without `Upgrade: websocket` is 426.',
    query: z.object({
      provider: z.string().optional().describe('a provider slug: use only this one, no failover, never queued'),
      profile: z.string().optional().describe('a profile slug to load, and save back at the end'),
      readOnly: z.enum(['1']).optional().describe('with `profile`: load, do not save'),
      session_record: z.enum(['true']).optional().describe('record the session as video (needs a positive wallet balance)'),
      observability: z.enum(['true']).optional().describe('capture a trace: network, console, navigations (needs a positive wallet balance)'),
    }),
    responses: {
      101: {
        description: 'Switching Protocols: the WebSocket is open',
        headers: { 'X-Session-Id': { description: 'the session id' }, 'X-Provider': { description: "the provider's slug" } },
      },
      400: {
        description: 'The router has no (enabled) providers; the `provider` slug is not on the router; no provider can save to the profile',
        envelope: false,
        contentType: 'text/plain',
      },
      402: {
        description: 'Over the free sessions with an empty wallet; recording or traces with an empty wallet; the workspace is suspended',
        envelope: false,
        contentType: 'text/plain',
      },
      409: { description: 'A switch is off for a requested feature; another session is saving to the profile', envelope: false, contentType: 'text/plain' },
      413: { description: 'The saved profile is over its size limit', envelope: false, contentType: 'text/plain' },
      426: { description: 'Not a WebSocket upgrade', envelope: false, contentType: 'text/plain' },
      429: { description: 'The queue wait timed out, or every eligible provider is full', envelope: false, contentType: 'text/plain' },
      502: { description: 'Every eligible provider failed to open a browser; the message lists each attempt', envelope: false, contentType: 'text/plain' },
      503: {
        description: 'The pinned provider is cooling down or full; no provider can take the session; the queue is full',
        envelope: false,
        contentType: 'text/plain',
      },
    },
  }),
]);
