import { endpoint } from '@/lib/api/endpoint';
import { recordingEndpoints } from '@/lib/recordings/endpoints';
import { listRecordings } from '@/lib/recordings/read-recordings';

// GET /v1/replays — recordings of the last 30 days, newest first; ?limit (50, at most 200), session_id, routerInstanceId
export const GET = endpoint(recordingEndpoints.listRecordings, (ctx) => listRecordings(ctx.workspace.id, ctx.query));
