import { api } from '@/lib/api/handler';
import { usageQuery } from '@/lib/billing/read-schemas';
import { billingUsage } from '@/lib/billing/usage';

// GET /v1/billing/usage?days= — one row per UTC day (sessions, bytes, amount drawn), totals, ledger breakdown; any member
export const GET = api({ errors: 'billing', query: usageQuery }, (ctx) => billingUsage(ctx.workspace.id, ctx.query.days));
