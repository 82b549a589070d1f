import { api } from '@/lib/api/handler';
import { routerScope } from '@/lib/providers/read-providers';
import { reprobeProvider } from '@/lib/providers/reprobe-provider';

// POST /v1/providers/:slug/reprobe — owner/admin; probes capabilities again; not for key-based providers
export const POST = api({ router: true, role: 'admin', counted: true }, (ctx) => reprobeProvider(routerScope(ctx), ctx.params.slug!));
