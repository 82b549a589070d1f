import { endpoint } from '@/lib/api/endpoint';
import { billingDashboardEndpoints } from '@/lib/billing/endpoints';
import { cancelTestCheckout } from '@/lib/billing/test-checkout';

// POST /api/billing/test-checkout/:id/cancel — the operator or a member of the workspace abandons a test checkout (it expires)
export const POST = endpoint(billingDashboardEndpoints.cancelTestCheckout, (ctx) => cancelTestCheckout(ctx.user, ctx.params.id));
