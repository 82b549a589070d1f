import { endpoint } from '@/lib/api/endpoint';
import { RECORDINGS } from '@/lib/captures/kinds';
import { deleteCapture } from '@/lib/captures/remove';
import { recordingEndpoints } from '@/lib/recordings/endpoints';
import { getRecording } from '@/lib/recordings/read-recordings';

// GET /v1/replays/:id — one recording plus orphaned
export const GET = endpoint(recordingEndpoints.getRecording, (ctx) => getRecording(ctx.workspace.id, ctx.params.id));

// DELETE /v1/replays/:id — owner/admin; { id }; the frames and the video go with it
export const DELETE = endpoint(recordingEndpoints.deleteRecording, (ctx) => deleteCapture(RECORDINGS, { workspaceId: ctx.workspace.id }, ctx.params.id));
