import { endpoint } from '@/lib/api/endpoint';
import { providerEndpoints } from '@/lib/providers/endpoints';
import { routerScope } from '@/lib/providers/read-providers';
import { reprobeProvider } from '@/lib/providers/reprobe-provider';

// POST /v1/providers/:slug/reprobe — owner/admin; probes capabilities again; not for key-based providers
export const POST = endpoint(providerEndpoints.reprobeProvider, (ctx) => reprobeProvider(routerScope(ctx), ctx.params.slug));
