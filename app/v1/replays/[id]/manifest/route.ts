import { api } from '@/lib/api/handler';
import { getManifest } from '@/lib/recordings/read-frames';

// GET /v1/replays/:id/manifest — the tabs and the frames with their timings and places in the chunks
export const GET = api({ counted: true }, (ctx) => getManifest(ctx.workspace.id, ctx.params.id!));
