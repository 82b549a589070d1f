import { api } from '@/lib/api/handler';
import { listSessionDownloads } from '@/lib/downloads/read-downloads';

// GET /v1/sessions/:id/downloads — the files the session's browser saved: { items: [{ id, name, sizeBytes, createdAt, url }], total }
export const GET = api({ counted: true }, (ctx) => listSessionDownloads(ctx.workspace.id, ctx.params.id!));
