import { endpoint } from '@/lib/api/endpoint';
import { downloadResponse } from '@/lib/downloads/read-downloads';
import { sessionEndpoints } from '@/lib/sessions/endpoints';

// GET /v1/sessions/:id/downloads/:downloadId — the file itself (application/octet-stream, attachment with its saved name); HEAD answers the same headers
export const GET = endpoint(sessionEndpoints.getSessionDownload, (ctx) =>
  downloadResponse(ctx.workspace.id, ctx.params.id, ctx.params.downloadId, ctx.req.method === 'HEAD'),
);
