import { endpoint } from '@/lib/api/endpoint';
import { TRACES } from '@/lib/captures/kinds';
import { deleteCapture } from '@/lib/captures/remove';
import { traceEndpoints } from '@/lib/traces/endpoints';
import { getTrace } from '@/lib/traces/read-traces';

// GET /v1/inspections/:id — one trace plus orphaned
export const GET = endpoint(traceEndpoints.getTrace, (ctx) => getTrace({ workspaceId: ctx.workspace.id, routerId: ctx.router.id }, ctx.params.id));

// DELETE /v1/inspections/:id — owner/admin; { id }; its events go with it
export const DELETE = endpoint(traceEndpoints.deleteTrace, (ctx) =>
  deleteCapture(TRACES, { workspaceId: ctx.workspace.id, routerId: ctx.router.id }, ctx.params.id),
);
