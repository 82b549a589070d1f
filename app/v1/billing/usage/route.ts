import { endpoint } from '@/lib/api/endpoint';
import { billingUsage } from '@/lib/billing/usage';
import { billingOps } from '@/lib/openapi/operations/billing';

// GET /v1/billing/usage?days= — one row per UTC day (sessions, bytes, amount drawn), totals, ledger breakdown; any member
export const GET = endpoint(billingOps.getBillingUsage, (ctx) => billingUsage(ctx.workspace.id, ctx.query.days));
