import { api } from '@/lib/api/handler';
import { deleteProvider } from '@/lib/providers/delete-provider';
import { getProviderOrThrow, routerScope } from '@/lib/providers/read-providers';
import { updateProviderSchema } from '@/lib/providers/schemas';
import { updateProvider } from '@/lib/providers/update-provider';

// GET /v1/providers/:slug — one provider
export const GET = api({ router: true, counted: true }, (ctx) => getProviderOrThrow(routerScope(ctx), ctx.params.slug!));

// PATCH /v1/providers/:slug — owner/admin; any subset of name, url, headers, priority, weight, maxConcurrent, profile, enabled
export const PATCH = api({ router: true, role: 'admin', counted: true, body: updateProviderSchema }, (ctx) =>
  updateProvider(routerScope(ctx), ctx.params.slug!, ctx.body),
);

// DELETE /v1/providers/:slug — owner/admin; `{ slug }`
export const DELETE = api({ router: true, role: 'admin', counted: true }, (ctx) => deleteProvider(routerScope(ctx), ctx.params.slug!));
