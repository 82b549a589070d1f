import { endpoint } from '@/lib/api/endpoint';
import { billingEndpoints } from '@/lib/billing/endpoints';
import { ledgerRows } from '@/lib/billing/usage';

// GET /v1/billing/ledger?limit=&months=&kind=&sinceDay= — the daily ledger, newest day first; any member
export const GET = endpoint(billingEndpoints.getBillingLedger, (ctx) => ledgerRows(ctx.workspace.id, ctx.query));
