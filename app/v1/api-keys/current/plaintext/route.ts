import { endpoint } from '@/lib/api/endpoint';
import { routerKeyEndpoints } from '@/lib/keys/endpoints';
import { currentRouterKeyPlaintext } from '@/lib/keys/manage-router-keys';

// GET /v1/api-keys/current/plaintext — owner/admin; the newest live key of the router
export const GET = endpoint(routerKeyEndpoints.getCurrentRouterKeyPlaintext, (ctx) => currentRouterKeyPlaintext(ctx.router.id));
