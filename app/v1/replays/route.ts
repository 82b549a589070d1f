import { endpoint } from '@/lib/api/endpoint';
import { sessionOps } from '@/lib/openapi/operations/sessions';
import { listRecordings } from '@/lib/recordings/read-recordings';

// GET /v1/replays — recordings of the last 30 days, newest first; ?limit (50, at most 200), session_id, routerInstanceId
export const GET = endpoint(sessionOps.listRecordings, (ctx) => listRecordings(ctx.workspace.id, ctx.query));
