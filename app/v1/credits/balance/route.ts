import { endpoint } from '@/lib/api/endpoint';
import { billingEndpoints } from '@/lib/billing/endpoints';
import { creditBalance } from '@/lib/billing/summary';

// GET /v1/credits/balance — the wallet's balance; any member
export const GET = endpoint(billingEndpoints.getCreditBalance, (ctx) => creditBalance(ctx.workspace.id));
