import { api } from '@/lib/api/handler';
import { downloadResponse } from '@/lib/downloads/read-downloads';

// GET /v1/sessions/:id/downloads/:downloadId — the file itself (application/octet-stream, attachment with its saved name); HEAD answers the same headers
export const GET = api({ counted: true }, (ctx) => downloadResponse(ctx.workspace.id, ctx.params.id!, ctx.params.downloadId!, ctx.req.method === 'HEAD'));
