import { api } from '@/lib/api/handler';
import { closeSession } from '@/lib/sessions/sessions';

// POST /v1/sessions/:id/close — owner/admin; the proxy drops the client, the browser is not ended
export const POST = api({ counted: true, role: 'admin' }, (ctx) => closeSession(ctx.workspace.id, ctx.params.id!));
