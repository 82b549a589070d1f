import { api } from '@/lib/api/handler';
import { currentRouterKeyPlaintext } from '@/lib/keys/manage-router-keys';

// GET /v1/api-keys/current/plaintext — owner/admin; the newest live key of the router
export const GET = api({ router: true, role: 'admin' }, (ctx) => currentRouterKeyPlaintext(ctx.router.id));
