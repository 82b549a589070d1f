import { endpoint } from '@/lib/api/endpoint';
import { creditBalance } from '@/lib/billing/summary';
import { billingOps } from '@/lib/openapi/operations/billing';

// GET /v1/credits/balance — the wallet's balance; any member
export const GET = endpoint(billingOps.getCreditBalance, (ctx) => creditBalance(ctx.workspace.id));
