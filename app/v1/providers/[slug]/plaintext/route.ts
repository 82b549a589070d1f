import { endpoint } from '@/lib/api/endpoint';
import { providerEndpoints } from '@/lib/providers/endpoints';
import { getProviderPlaintext, routerScope } from '@/lib/providers/read-providers';

// GET /v1/providers/:slug/plaintext — owner/admin; stored url and headers in full with credentials
export const GET = endpoint(providerEndpoints.getProviderPlaintext, (ctx) => getProviderPlaintext(routerScope(ctx), ctx.params.slug));
