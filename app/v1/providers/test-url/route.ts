import { api } from '@/lib/api/handler';
import { routerScope } from '@/lib/providers/read-providers';
import { addressCheckSchema } from '@/lib/providers/schemas';
import { testUrl } from '@/lib/providers/test-provider';

// POST /v1/providers/test-url — owner/admin; `{ url, headers? }` → same shape as /test
export const POST = api({ router: true, role: 'admin', counted: true, body: addressCheckSchema }, (ctx) => testUrl(routerScope(ctx), ctx.body));
