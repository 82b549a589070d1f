import { endpoint } from '@/lib/api/endpoint';
import { providerEndpoints } from '@/lib/providers/endpoints';
import { routerScope } from '@/lib/providers/read-providers';
import { testUrl } from '@/lib/providers/test-provider';

// POST /v1/providers/test-url — owner/admin; `{ url, headers? }` → same shape as /test
export const POST = endpoint(providerEndpoints.testProviderUrl, (ctx) => testUrl(routerScope(ctx), ctx.body));
