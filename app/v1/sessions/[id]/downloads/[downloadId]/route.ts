import { endpoint } from '@/lib/api/endpoint';
import { downloadResponse } from '@/lib/downloads/read-downloads';
import { sessionOps } from '@/lib/openapi/operations/sessions';

// GET /v1/sessions/:id/downloads/:downloadId — the file itself (application/octet-stream, attachment with its saved name); HEAD answers the same headers
export const GET = endpoint(sessionOps.getSessionDownload, (ctx) => downloadResponse(ctx.workspace.id, ctx.params.id, ctx.params.downloadId, ctx.req.method === 'HEAD'));
