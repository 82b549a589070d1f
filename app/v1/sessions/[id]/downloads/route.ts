import { endpoint } from '@/lib/api/endpoint';
import { listSessionDownloads } from '@/lib/downloads/read-downloads';
import { sessionEndpoints } from '@/lib/sessions/endpoints';

// GET /v1/sessions/:id/downloads — the files the session's browser saved: { items: [{ id, name, sizeBytes, createdAt, url }], total }
export const GET = endpoint(sessionEndpoints.listSessionDownloads, (ctx) => listSessionDownloads(ctx.workspace.id, ctx.params.id));
