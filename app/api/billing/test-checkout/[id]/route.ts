import { api } from '@/lib/api/handler';
import { viewTestCheckout } from '@/lib/billing/test-checkout';

// GET /api/billing/test-checkout/:id — the test mode's checkout page data (the operator, or a member of the top-up's workspace)
export const GET = api({ workspace: 'none', errors: 'billing' }, (ctx) => viewTestCheckout(ctx.user, ctx.params.id!));
