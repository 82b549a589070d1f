import { endpoint } from '@/lib/api/endpoint';
import { providerOps } from '@/lib/openapi/operations/providers';
import { probeUrl } from '@/lib/providers/probe-url';
import { routerScope } from '@/lib/providers/read-providers';

// POST /v1/providers/probe — owner/admin; `{ url, headers? }` → `{ detectedKind, advertisedMaxConcurrent }`
export const POST = endpoint(providerOps.probeProviderUrl, (ctx) => probeUrl(routerScope(ctx), ctx.body));
