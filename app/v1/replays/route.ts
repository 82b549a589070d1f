import { api } from '@/lib/api/handler';
import { listRecordings } from '@/lib/recordings/read-recordings';
import { listRecordingsQuery } from '@/lib/recordings/schemas';

// GET /v1/replays — recordings of the last 30 days, newest first; ?limit (50, at most 200), session_id, routerInstanceId
export const GET = api({ counted: true, query: listRecordingsQuery }, (ctx) => listRecordings(ctx.workspace.id, ctx.query));
