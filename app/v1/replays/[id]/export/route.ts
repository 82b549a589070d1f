import { endpoint } from '@/lib/api/endpoint';
import { recordingEndpoints } from '@/lib/recordings/endpoints';
import { exportRecording } from '@/lib/recordings/export-recording';

// POST /v1/replays/:id/export — { mp4Status } or { alreadyReady: true, mp4Status: 'ready' }; 409 not_complete while recording
export const POST = endpoint(recordingEndpoints.exportRecording, (ctx) => exportRecording(ctx.workspace.id, ctx.params.id));
