import { api } from '@/lib/api/handler';
import { creditBalance } from '@/lib/billing/summary';

// GET /v1/credits/balance — the wallet's balance; any member
export const GET = api({ errors: 'billing' }, (ctx) => creditBalance(ctx.workspace.id));
