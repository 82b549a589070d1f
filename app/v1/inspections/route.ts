import { api } from '@/lib/api/handler';
import { listTraces } from '@/lib/traces/read-traces';
import { listTracesQuery } from '@/lib/traces/schemas';

// GET /v1/inspections — the router's traces, newest first; ?limit (50, at most 200), since (Unix ms, default 24 hours ago), session_id
export const GET = api({ counted: true, router: true, query: listTracesQuery }, (ctx) =>
  listTraces({ workspaceId: ctx.workspace.id, routerId: ctx.router.id }, ctx.query),
);
