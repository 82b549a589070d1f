import { api } from '@/lib/api/handler';
import { overviewQuery } from '@/lib/overview/schemas';
import { readOverview } from '@/lib/overview/read-overview';

// GET /v1/overview?days= — daily sessions and data-API calls, active sessions, errors per provider, routers, wallet, latest sessions, checklist; any member
export const GET = api({ query: overviewQuery }, (ctx) => readOverview(ctx.workspace, ctx.user.id, ctx.query.days));
