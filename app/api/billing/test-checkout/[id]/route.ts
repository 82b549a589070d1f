import { endpoint } from '@/lib/api/endpoint';
import { billingDashboardEndpoints } from '@/lib/billing/endpoints';
import { viewTestCheckout } from '@/lib/billing/test-checkout';

// GET /api/billing/test-checkout/:id — the test mode's checkout page data (the operator, or a member of the top-up's workspace)
export const GET = endpoint(billingDashboardEndpoints.viewTestCheckout, (ctx) => viewTestCheckout(ctx.user, ctx.params.id));
