import { endpoint } from '@/lib/api/endpoint';
import { recordingEndpoints } from '@/lib/recordings/endpoints';
import { getManifest } from '@/lib/recordings/read-frames';

// GET /v1/replays/:id/manifest — the tabs and the frames with their timings and places in the chunks
export const GET = endpoint(recordingEndpoints.getRecordingManifest, (ctx) => getManifest(ctx.workspace.id, ctx.params.id));
