import { endpoint } from '@/lib/api/endpoint';
import { streamLiveView } from '@/lib/proxy-client/live';
import { sessionDashboardEndpoints } from '@/lib/sessions/endpoints';
import { findWatchableSession } from '@/lib/sessions/find-watchable-session';
import { holdingProxyUrl } from '@/lib/sessions/holding-proxy';

// GET /api/sessions/:id/live — owner/admin of the session's workspace, dashboard only; the running
// session's pages as Server-Sent Events (`tabs`, `frame`, `end`) from the proxy that holds it.
// 404 for a session the user cannot see, 409 when it has ended or is not recorded.
export const GET = endpoint(sessionDashboardEndpoints.watchSessionLive, async (ctx) => {
  const session = await findWatchableSession(ctx.user.id, ctx.params.id);
  return streamLiveView(session.id, ctx.req.signal, await holdingProxyUrl(session.proxyInstanceId));
});
