import { endpoint } from '@/lib/api/endpoint';
import { currentRouterKeyPlaintext } from '@/lib/keys/manage-router-keys';
import { routerOps } from '@/lib/openapi/operations/routers';

// GET /v1/api-keys/current/plaintext — owner/admin; the newest live key of the router
export const GET = endpoint(routerOps.getCurrentRouterKeyPlaintext, (ctx) => currentRouterKeyPlaintext(ctx.router.id));
