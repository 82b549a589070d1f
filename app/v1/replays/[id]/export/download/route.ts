import { endpoint } from '@/lib/api/endpoint';
import { recordingEndpoints } from '@/lib/recordings/endpoints';
import { videoResponse } from '@/lib/recordings/serve-video';

// GET /v1/replays/:id/export/download — the MP4 (video/mp4, byte ranges; ?inline=1 for a player); 409 not_ready until mp4Status is ready
export const GET = endpoint(recordingEndpoints.downloadRecording, (ctx) =>
  videoResponse(ctx.workspace.id, ctx.params.id, { range: ctx.req.headers.get('range'), inline: ctx.query.inline, head: ctx.req.method === 'HEAD' }),
);
