// The workspace's overview (docs/api.md: Overview).
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { byId, operation } from '../openapi/operation';
import { overview } from '../openapi/resources/overview';
import { overviewQuery } from './schemas';

const SESSIONS = 'Sessions';

export const overviewEndpoints = byId([
  operation({
    method: 'get',
    path: '/v1/overview',
    operationId: 'getOverview',
    tag: SESSIONS,
    auth: 'account',
    summary: 'The workspace at a glance',
    description:
      'Sessions and data-API calls per UTC day over the last `days` (default 30), active sessions now, errors per provider, the routers with their figures, the wallet and the free sessions left this month, the newest sessions, and the getting-started checklist computed from what was done. Any member.',
    query: overviewQuery,
    responses: { 200: { description: 'The overview', schema: overview } },
  }),
]);
