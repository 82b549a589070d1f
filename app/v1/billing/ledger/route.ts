import { endpoint } from '@/lib/api/endpoint';
import { ledgerRows } from '@/lib/billing/usage';
import { billingOps } from '@/lib/openapi/operations/billing';

// GET /v1/billing/ledger?limit=&months=&kind=&sinceDay= — the daily ledger, newest day first; any member
export const GET = endpoint(billingOps.getBillingLedger, (ctx) => ledgerRows(ctx.workspace.id, ctx.query));
