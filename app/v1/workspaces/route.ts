import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';
import { workspaceEndpoints } from '@/lib/workspaces/endpoints';
import { createOwnWorkspace, listWorkspaces } from '@/lib/workspaces/workspaces';

// GET /v1/workspaces — the caller's workspaces with their role
export const GET = endpoint(workspaceEndpoints.listWorkspaces, async (ctx) => {
  const items = await listWorkspaces(ctx.user.id);
  return { items, total: items.length };
});

// POST /v1/workspaces — create a workspace owned by the caller (beyond docs/api.md; see docs/decisions.md)
export const POST = endpoint(workspaceEndpoints.createWorkspace, async (ctx) => created(await createOwnWorkspace(ctx.user.id, ctx.body.name)));
