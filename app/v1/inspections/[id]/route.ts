import { api } from '@/lib/api/handler';
import { TRACES } from '@/lib/captures/kinds';
import { deleteCapture } from '@/lib/captures/remove';
import { getTrace } from '@/lib/traces/read-traces';

// GET /v1/inspections/:id — one trace plus orphaned
export const GET = api({ counted: true, router: true }, (ctx) => getTrace({ workspaceId: ctx.workspace.id, routerId: ctx.router.id }, ctx.params.id!));

// DELETE /v1/inspections/:id — owner/admin; { id }; its events go with it
export const DELETE = api({ counted: true, router: true, role: 'admin' }, (ctx) =>
  deleteCapture(TRACES, { workspaceId: ctx.workspace.id, routerId: ctx.router.id }, ctx.params.id!),
);
