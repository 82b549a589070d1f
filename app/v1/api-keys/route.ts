import { api, created } from '@/lib/api/handler';
import { issueRouterKey, listRouterKeys } from '@/lib/keys/manage-router-keys';
import { createRouterKeySchema } from '@/lib/keys/schemas';

// GET /v1/api-keys — keys of the router (live and revoked), newest first
export const GET = api({ router: true }, (ctx) => listRouterKeys(ctx.router.id));

// POST /v1/api-keys — owner/admin; 201 Router key with plaintextKey
export const POST = api({ router: true, role: 'admin', body: createRouterKeySchema }, async (ctx) => created(await issueRouterKey(ctx.workspace.id, ctx.router.id, ctx.body.label)));
