import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';
import { issueRouterKey, listRouterKeys } from '@/lib/keys/manage-router-keys';
import { routerOps } from '@/lib/openapi/operations/routers';

// GET /v1/api-keys — keys of the router (live and revoked), newest first
export const GET = endpoint(routerOps.listRouterKeys, (ctx) => listRouterKeys(ctx.router.id));

// POST /v1/api-keys — owner/admin; 201 Router key with plaintextKey
export const POST = endpoint(routerOps.createRouterKey, async (ctx) => created(await issueRouterKey(ctx.workspace.id, ctx.router.id, ctx.body.label)));
