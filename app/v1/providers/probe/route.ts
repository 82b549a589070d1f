import { api } from '@/lib/api/handler';
import { probeUrl } from '@/lib/providers/probe-url';
import { routerScope } from '@/lib/providers/read-providers';
import { addressCheckSchema } from '@/lib/providers/schemas';

// POST /v1/providers/probe — owner/admin; `{ url, headers? }` → `{ detectedKind, advertisedMaxConcurrent }`
export const POST = api({ router: true, role: 'admin', counted: true, body: addressCheckSchema }, (ctx) => probeUrl(routerScope(ctx), ctx.body));
