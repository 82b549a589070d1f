import { endpoint } from '@/lib/api/endpoint';
import { sessionOps } from '@/lib/openapi/operations/sessions';
import { chunkResponse } from '@/lib/recordings/read-frames';

// GET /v1/replays/:id/chunks/:index — one chunk of frames as stored ([u32 length][JPEG], repeated)
export const GET = endpoint(sessionOps.getRecordingChunk, (ctx) => chunkResponse(ctx.workspace.id, ctx.params.id, ctx.params.index, ctx.req.method));
