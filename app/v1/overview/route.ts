import { endpoint } from '@/lib/api/endpoint';
import { overviewEndpoints } from '@/lib/overview/endpoints';
import { readOverview } from '@/lib/overview/read-overview';

// GET /v1/overview?days= — daily sessions and data-API calls, active sessions, errors per provider, routers, wallet, latest sessions, checklist; any member
export const GET = endpoint(overviewEndpoints.getOverview, (ctx) => readOverview(ctx.workspace, ctx.user.id, ctx.query.days));
