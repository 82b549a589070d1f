import { api } from '@/lib/api/handler';
import { routerScope } from '@/lib/providers/read-providers';
import { testProvider } from '@/lib/providers/test-provider';

// POST /v1/providers/:slug/test — owner/admin; `{ ok: true, latencyMs }` or `{ ok: false, reason }`; key-based: checks the saved key
export const POST = api({ router: true, role: 'admin', counted: true }, (ctx) => testProvider(routerScope(ctx), ctx.params.slug!));
