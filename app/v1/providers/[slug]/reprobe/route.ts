import { endpoint } from '@/lib/api/endpoint';
import { providerOps } from '@/lib/openapi/operations/providers';
import { routerScope } from '@/lib/providers/read-providers';
import { reprobeProvider } from '@/lib/providers/reprobe-provider';

// POST /v1/providers/:slug/reprobe — owner/admin; probes capabilities again; not for key-based providers
export const POST = endpoint(providerOps.reprobeProvider, (ctx) => reprobeProvider(routerScope(ctx), ctx.params.slug));
