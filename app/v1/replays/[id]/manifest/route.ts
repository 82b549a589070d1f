import { endpoint } from '@/lib/api/endpoint';
import { sessionOps } from '@/lib/openapi/operations/sessions';
import { getManifest } from '@/lib/recordings/read-frames';

// GET /v1/replays/:id/manifest — the tabs and the frames with their timings and places in the chunks
export const GET = endpoint(sessionOps.getRecordingManifest, (ctx) => getManifest(ctx.workspace.id, ctx.params.id));
