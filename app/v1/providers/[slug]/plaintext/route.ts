import { api } from '@/lib/api/handler';
import { getProviderPlaintext, routerScope } from '@/lib/providers/read-providers';

// GET /v1/providers/:slug/plaintext — owner/admin; stored url and headers in full with credentials
export const GET = api({ router: true, role: 'admin', counted: true }, (ctx) => getProviderPlaintext(routerScope(ctx), ctx.params.slug!));
