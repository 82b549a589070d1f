import { api } from '@/lib/api/handler';
import { exportRecording } from '@/lib/recordings/export-recording';

// POST /v1/replays/:id/export — { mp4Status } or { alreadyReady: true, mp4Status: 'ready' }; 409 not_complete while recording
export const POST = api({ counted: true }, (ctx) => exportRecording(ctx.workspace.id, ctx.params.id!));
