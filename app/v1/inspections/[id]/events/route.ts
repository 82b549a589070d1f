import { api } from '@/lib/api/handler';
import { readEvents } from '@/lib/traces/read-events';
import { eventsQuery } from '@/lib/traces/schemas';

// GET /v1/inspections/:id/events — every event (streamed), ?page=n (from 0), or ?download=json|gz|har as a file; 409 trace_in_progress while the session runs
export const GET = api({ counted: true, router: true, query: eventsQuery }, (ctx) =>
  readEvents({ workspaceId: ctx.workspace.id, routerId: ctx.router.id }, ctx.params.id!, ctx.query),
);
