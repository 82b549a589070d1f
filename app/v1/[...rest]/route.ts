import { api } from '@/lib/api/handler';
import { ApiError } from '@/lib/api/errors';

// Any other /v1 path answers in the API's envelope rather than with the dashboard's HTML 404.
const unknown = api({ auth: 'optional', workspace: 'none' }, async (ctx) => {
  throw new ApiError('not_found', `no endpoint ${ctx.req.method} ${ctx.req.nextUrl.pathname}`);
});
export { unknown as GET, unknown as POST, unknown as PATCH, unknown as PUT, unknown as DELETE };
