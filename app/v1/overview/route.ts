import { endpoint } from '@/lib/api/endpoint';
import { sessionOps } from '@/lib/openapi/operations/sessions';
import { readOverview } from '@/lib/overview/read-overview';

// GET /v1/overview?days= — daily sessions and data-API calls, active sessions, errors per provider, routers, wallet, latest sessions, checklist; any member
export const GET = endpoint(sessionOps.getOverview, (ctx) => readOverview(ctx.workspace, ctx.user.id, ctx.query.days));
