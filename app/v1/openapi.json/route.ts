import { endpoint } from '@/lib/api/endpoint';
import { bareJson } from '@/lib/api/handler';
import { buildOpenApiDocument } from '@/lib/openapi/document';
import { referenceEndpoints } from '@/lib/openapi/endpoints';
import { documentServers } from '@/lib/openapi/servers';

// GET /v1/openapi.json — the OpenAPI 3.1 document of this API and the proxy's endpoints; public
// (it describes the API, it holds nothing of anyone's), cacheable for 5 minutes
export const GET = endpoint(referenceEndpoints.getOpenApiDocument, async (ctx) =>
  bareJson(buildOpenApiDocument(documentServers(ctx.req.headers)), { 'Cache-Control': 'public, max-age=300', Vary: 'Host' }),
);
