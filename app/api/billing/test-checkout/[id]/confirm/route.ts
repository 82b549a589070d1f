import { endpoint } from '@/lib/api/endpoint';
import { billingDashboardEndpoints } from '@/lib/billing/endpoints';
import { confirmTestCheckout } from '@/lib/billing/test-checkout';

// POST /api/billing/test-checkout/:id/confirm — the instance operator confirms a test payment (no money moves)
export const POST = endpoint(billingDashboardEndpoints.confirmTestCheckout, (ctx) => confirmTestCheckout(ctx.user, ctx.params.id));
