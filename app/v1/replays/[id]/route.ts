import { api } from '@/lib/api/handler';
import { RECORDINGS } from '@/lib/captures/kinds';
import { deleteCapture } from '@/lib/captures/remove';
import { getRecording } from '@/lib/recordings/read-recordings';

// GET /v1/replays/:id — one recording plus orphaned
export const GET = api({ counted: true }, (ctx) => getRecording(ctx.workspace.id, ctx.params.id!));

// DELETE /v1/replays/:id — owner/admin; { id }; the frames and the video go with it
export const DELETE = api({ counted: true, role: 'admin' }, (ctx) => deleteCapture(RECORDINGS, { workspaceId: ctx.workspace.id }, ctx.params.id!));
