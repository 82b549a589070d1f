import { api } from '@/lib/api/handler';
import { checkoutBody, startCheckout } from '@/lib/billing/checkout';

// POST /v1/billing/checkout — owner or admin; a pending top-up and the processor's checkout URL
export const POST = api({ role: 'admin', body: checkoutBody, errors: 'billing' }, (ctx) => startCheckout(ctx.workspace.id, ctx.user.id, ctx.body.topupUsdCents));
