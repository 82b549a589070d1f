import { operatorEndpoints } from '@/lib/admin/endpoints';
import { findWorkspaces } from '@/lib/admin/workspaces';
import { endpoint } from '@/lib/api/endpoint';

// GET /v1/admin/workspaces?q=&page=&pageSize= — the instance operator finds workspaces (slug, name, owner e-mail)
export const GET = endpoint(operatorEndpoints.findWorkspaces, (ctx) => findWorkspaces(ctx.query));
