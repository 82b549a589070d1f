// The API's own description: this document (docs/api.md).
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { z } from 'zod';
import { byId, operation } from './operation';

export const referenceEndpoints = byId([
  operation({
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Reference',
    auth: 'none',
    scope: 'none',
    summary: 'This document',
    description: "The OpenAPI 3.1 description of the control plane and the proxy's endpoints; public, and cacheable for 5 minutes. Rendered at `/docs/api`.",
    responses: { 200: { description: 'The document', envelope: false, schema: z.record(z.string(), z.unknown()).describe('an OpenAPI 3.1 document') } },
  }),
]);
