import { endpoint } from '@/lib/api/endpoint';
import { sessionOps } from '@/lib/openapi/operations/sessions';
import { listTraces } from '@/lib/traces/read-traces';

// GET /v1/inspections — the router's traces, newest first; ?limit (50, at most 200), since (Unix ms, default 24 hours ago), session_id
export const GET = endpoint(sessionOps.listTraces, (ctx) =>
  listTraces({ workspaceId: ctx.workspace.id, routerId: ctx.router.id }, ctx.query),
);
