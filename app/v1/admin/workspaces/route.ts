import { findWorkspaces } from '@/lib/admin/workspaces';
import { endpoint } from '@/lib/api/endpoint';
import { accountOps } from '@/lib/openapi/operations/accounts';

// GET /v1/admin/workspaces?q=&page=&pageSize= — the instance operator finds workspaces (slug, name, owner e-mail)
export const GET = endpoint(accountOps.findWorkspaces, (ctx) => findWorkspaces(ctx.query));
