import { endpoint } from '@/lib/api/endpoint';
import { traceEndpoints } from '@/lib/traces/endpoints';
import { readEvents } from '@/lib/traces/read-events';

// GET /v1/inspections/:id/events — every event (streamed), ?page=n (from 0), or ?download=json|gz|har as a file; 409 trace_in_progress while the session runs
export const GET = endpoint(traceEndpoints.getTraceEvents, (ctx) =>
  readEvents({ workspaceId: ctx.workspace.id, routerId: ctx.router.id }, ctx.params.id, ctx.query),
);
