import { api } from '@/lib/api/handler';
import { deleteRecording } from '@/lib/recordings/delete-recording';
import { getRecording } from '@/lib/recordings/read-recordings';

// GET /v1/replays/:id — one recording plus orphaned
export const GET = api({ counted: true }, (ctx) => getRecording(ctx.workspace.id, ctx.params.id!));

// DELETE /v1/replays/:id — owner/admin; { id }; the frames and the video go with it
export const DELETE = api({ counted: true, role: 'admin' }, (ctx) => deleteRecording(ctx.workspace.id, ctx.params.id!));
