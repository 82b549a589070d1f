import { endpoint } from '@/lib/api/endpoint';
import { providerEndpoints } from '@/lib/providers/endpoints';
import { probeUrl } from '@/lib/providers/probe-url';
import { routerScope } from '@/lib/providers/read-providers';

// POST /v1/providers/probe — owner/admin; `{ url, headers? }` → `{ detectedKind, advertisedMaxConcurrent }`
export const POST = endpoint(providerEndpoints.probeProviderUrl, (ctx) => probeUrl(routerScope(ctx), ctx.body));
