import { endpoint } from '@/lib/api/endpoint';
import { billingEndpoints } from '@/lib/billing/endpoints';
import { billingUsage } from '@/lib/billing/usage';

// GET /v1/billing/usage?days= — one row per UTC day (sessions, bytes, amount drawn), totals, ledger breakdown; any member
export const GET = endpoint(billingEndpoints.getBillingUsage, (ctx) => billingUsage(ctx.workspace.id, ctx.query.days));
