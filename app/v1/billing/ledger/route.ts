import { api } from '@/lib/api/handler';
import { ledgerQuery } from '@/lib/billing/read-schemas';
import { ledgerRows } from '@/lib/billing/usage';

// GET /v1/billing/ledger?limit=&months=&kind=&sinceDay= — the daily ledger, newest day first; any member
export const GET = api({ errors: 'billing', query: ledgerQuery }, (ctx) => ledgerRows(ctx.workspace.id, ctx.query));
