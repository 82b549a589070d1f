import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';
import { routerKeyEndpoints } from '@/lib/keys/endpoints';
import { issueRouterKey, listRouterKeys } from '@/lib/keys/manage-router-keys';

// GET /v1/api-keys — keys of the router (live and revoked), newest first
export const GET = endpoint(routerKeyEndpoints.listRouterKeys, (ctx) => listRouterKeys(ctx.router.id));

// POST /v1/api-keys — owner/admin; 201 Router key with plaintextKey
export const POST = endpoint(routerKeyEndpoints.createRouterKey, async (ctx) => created(await issueRouterKey(ctx.workspace.id, ctx.router.id, ctx.body.label)));
