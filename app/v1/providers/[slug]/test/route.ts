import { endpoint } from '@/lib/api/endpoint';
import { providerEndpoints } from '@/lib/providers/endpoints';
import { routerScope } from '@/lib/providers/read-providers';
import { testProvider } from '@/lib/providers/test-provider';

// POST /v1/providers/:slug/test — owner/admin; `{ ok: true, latencyMs }` or `{ ok: false, reason }`; key-based: checks the saved key
export const POST = endpoint(providerEndpoints.testProvider, (ctx) => testProvider(routerScope(ctx), ctx.params.slug));
