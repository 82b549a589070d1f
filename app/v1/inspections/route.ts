import { endpoint } from '@/lib/api/endpoint';
import { traceEndpoints } from '@/lib/traces/endpoints';
import { listTraces } from '@/lib/traces/read-traces';

// GET /v1/inspections — the router's traces, newest first; ?limit (50, at most 200), since (Unix ms, default 24 hours ago), session_id
export const GET = endpoint(traceEndpoints.listTraces, (ctx) => listTraces({ workspaceId: ctx.workspace.id, routerId: ctx.router.id }, ctx.query));
