import { endpoint } from '@/lib/api/endpoint';
import { deleteProvider } from '@/lib/providers/delete-provider';
import { providerEndpoints } from '@/lib/providers/endpoints';
import { getProviderOrThrow, routerScope } from '@/lib/providers/read-providers';
import { updateProvider } from '@/lib/providers/update-provider';

// GET /v1/providers/:slug — one provider
export const GET = endpoint(providerEndpoints.getProvider, (ctx) => getProviderOrThrow(routerScope(ctx), ctx.params.slug));

// PATCH /v1/providers/:slug — owner/admin; any subset of name, url, headers, priority, weight, maxConcurrent, profile, enabled
export const PATCH = endpoint(providerEndpoints.updateProvider, (ctx) => updateProvider(routerScope(ctx), ctx.params.slug, ctx.body));

// DELETE /v1/providers/:slug — owner/admin; `{ slug }`
export const DELETE = endpoint(providerEndpoints.deleteProvider, (ctx) => deleteProvider(routerScope(ctx), ctx.params.slug));
