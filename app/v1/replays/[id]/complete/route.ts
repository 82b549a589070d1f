import { api } from '@/lib/api/handler';
import { getCompleteSummary } from '@/lib/recordings/read-frames';

// GET /v1/replays/:id/complete — the end-of-session summary; 409 not_complete while recording
export const GET = api({ counted: true }, (ctx) => getCompleteSummary(ctx.workspace.id, ctx.params.id!));
