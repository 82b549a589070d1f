import { endpoint } from '@/lib/api/endpoint';
import { startCheckout } from '@/lib/billing/checkout';
import { billingEndpoints } from '@/lib/billing/endpoints';

// POST /v1/billing/checkout — owner or admin; a pending top-up and the processor's checkout URL
export const POST = endpoint(billingEndpoints.startCheckout, (ctx) => startCheckout(ctx.workspace.id, ctx.user.id, ctx.body.topupUsdCents));
