import { api, created } from '@/lib/api/handler';
import { createProvider } from '@/lib/providers/create-provider';
import { listProviders, routerScope } from '@/lib/providers/read-providers';
import { createProviderSchema, listProvidersQuerySchema } from '@/lib/providers/schemas';

// GET /v1/providers — providers of the router, paged (page, pageSize)
export const GET = api({ router: true, counted: true, query: listProvidersQuerySchema }, (ctx) =>
  listProviders(routerScope(ctx), ctx.query.page, ctx.query.pageSize),
);

// POST /v1/providers — owner/admin; address form or key form; tested (and probed) before it is saved
export const POST = api({ router: true, role: 'admin', counted: true, body: createProviderSchema }, async (ctx) =>
  created(await createProvider(routerScope(ctx), ctx.body)),
);
