import { endpoint } from '@/lib/api/endpoint';
import { recordingEndpoints } from '@/lib/recordings/endpoints';
import { getCompleteSummary } from '@/lib/recordings/read-frames';

// GET /v1/replays/:id/complete — the end-of-session summary; 409 not_complete while recording
export const GET = endpoint(recordingEndpoints.getRecordingSummary, (ctx) => getCompleteSummary(ctx.workspace.id, ctx.params.id));
