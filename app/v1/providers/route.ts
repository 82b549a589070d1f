import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';
import { createProvider } from '@/lib/providers/create-provider';
import { providerEndpoints } from '@/lib/providers/endpoints';
import { listProviders, routerScope } from '@/lib/providers/read-providers';

// GET /v1/providers — providers of the router, paged (page, pageSize)
export const GET = endpoint(providerEndpoints.listProviders, (ctx) => listProviders(routerScope(ctx), ctx.query.page, ctx.query.pageSize));

// POST /v1/providers — owner/admin; address form or key form; tested (and probed) before it is saved
export const POST = endpoint(providerEndpoints.createProvider, async (ctx) => created(await createProvider(routerScope(ctx), ctx.body)));
