import { endpoint } from '@/lib/api/endpoint';
import { sessionOps } from '@/lib/openapi/operations/sessions';
import { exportRecording } from '@/lib/recordings/export-recording';

// POST /v1/replays/:id/export — { mp4Status } or { alreadyReady: true, mp4Status: 'ready' }; 409 not_complete while recording
export const POST = endpoint(sessionOps.exportRecording, (ctx) => exportRecording(ctx.workspace.id, ctx.params.id));
