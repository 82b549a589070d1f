import { endpoint } from '@/lib/api/endpoint';
import { sessionEndpoints } from '@/lib/sessions/endpoints';
import { closeSession } from '@/lib/sessions/sessions';

// POST /v1/sessions/:id/close — owner/admin; the proxy drops the client, the browser is not ended
export const POST = endpoint(sessionEndpoints.closeSession, (ctx) => closeSession(ctx.workspace.id, ctx.params.id));
