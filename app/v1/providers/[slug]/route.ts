import { endpoint } from '@/lib/api/endpoint';
import { providerOps } from '@/lib/openapi/operations/providers';
import { deleteProvider } from '@/lib/providers/delete-provider';
import { getProviderOrThrow, routerScope } from '@/lib/providers/read-providers';
import { updateProvider } from '@/lib/providers/update-provider';

// GET /v1/providers/:slug — one provider
export const GET = endpoint(providerOps.getProvider, (ctx) => getProviderOrThrow(routerScope(ctx), ctx.params.slug));

// PATCH /v1/providers/:slug — owner/admin; any subset of name, url, headers, priority, weight, maxConcurrent, profile, enabled
export const PATCH = endpoint(providerOps.updateProvider, (ctx) =>
  updateProvider(routerScope(ctx), ctx.params.slug, ctx.body),
);

// DELETE /v1/providers/:slug — owner/admin; `{ slug }`
export const DELETE = endpoint(providerOps.deleteProvider, (ctx) => deleteProvider(routerScope(ctx), ctx.params.slug));
