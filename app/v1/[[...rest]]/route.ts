import { api } from '@/lib/api/handler';
import { unknownEndpoint } from '@/lib/api/unknown-endpoint';

// Any other /v1 path (and /v1 itself) answers in the API's envelope rather than with the
// dashboard's HTML 404; the proxy's endpoints (data API, connect, status) say where they live.
// Credentials are not read: a router key sent here by mistake gets that answer, not a 401.
const unknown = api({ auth: 'none', workspace: 'none' }, async (ctx) => {
  throw unknownEndpoint(ctx.req.method, ctx.req.nextUrl.pathname, ctx.req.headers.get('host'));
});
export { unknown as GET, unknown as POST, unknown as PATCH, unknown as PUT, unknown as DELETE };
