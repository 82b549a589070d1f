import { endpoint } from '@/lib/api/endpoint';
import { providerOps } from '@/lib/openapi/operations/providers';
import { getProviderPlaintext, routerScope } from '@/lib/providers/read-providers';

// GET /v1/providers/:slug/plaintext — owner/admin; stored url and headers in full with credentials
export const GET = endpoint(providerOps.getProviderPlaintext, (ctx) => getProviderPlaintext(routerScope(ctx), ctx.params.slug));
