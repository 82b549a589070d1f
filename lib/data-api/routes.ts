// The proxy's public /v1 surface: the connect endpoint, the router status and the data API. The
// proxy's dispatcher (proxy/server.ts, proxy/data-api/handle-data-api.ts) serves exactly these, and
// the API's OpenAPI document (lib/openapi) describes them; lib/openapi/coverage.test.ts keeps the
// two equal. Beside them the proxy serves /health, CDP discovery (/json/version) and the MCP
// surface (/mcp), which are not part of this API.
import type { z } from 'zod';
import { contentSchema, scrapeSchema, screenshotSchema } from './schemas';

const MB = 1024 * 1024;

export interface DataApiRoute {
  /** The request body's schema (docs/connect.md, "Fields of all three"). */
  schema: z.ZodType;
  /** docs/connect.md: the response body cap of the endpoint. */
  capBytes: number;
}

/** POST only: any other method is a 405 naming POST. */
export const DATA_API_ROUTES = {
  '/v1/screenshot': { schema: screenshotSchema, capBytes: 25 * MB },
  '/v1/content': { schema: contentSchema, capBytes: 10 * MB },
  '/v1/scrape': { schema: scrapeSchema, capBytes: 5 * MB },
} as const satisfies Record<string, DataApiRoute>;

export type DataApiPath = keyof typeof DATA_API_ROUTES;

export const CONNECT_PATH = '/v1/connect';
export const STATUS_PATH = '/v1/status';

/** Every public /v1 route of the proxy with its method; the connect endpoint takes a WebSocket upgrade. */
export const PROXY_ROUTES: Readonly<Record<string, 'GET' | 'POST'>> = {
  [CONNECT_PATH]: 'GET',
  [STATUS_PATH]: 'GET',
  ...Object.fromEntries(Object.keys(DATA_API_ROUTES).map((path) => [path, 'POST' as const])),
};
