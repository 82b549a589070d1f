import { endpoint } from '@/lib/api/endpoint';
import { recordingEndpoints } from '@/lib/recordings/endpoints';
import { chunkResponse } from '@/lib/recordings/read-frames';

// GET /v1/replays/:id/chunks/:index — one chunk of frames as stored ([u32 length][JPEG], repeated)
export const GET = endpoint(recordingEndpoints.getRecordingChunk, (ctx) => chunkResponse(ctx.workspace.id, ctx.params.id, ctx.params.index, ctx.req.method));
