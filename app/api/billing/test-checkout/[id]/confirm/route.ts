import { api } from '@/lib/api/handler';
import { confirmTestCheckout } from '@/lib/billing/test-checkout';

// POST /api/billing/test-checkout/:id/confirm — the instance operator confirms a test payment (no money moves)
export const POST = api({ workspace: 'none', errors: 'billing' }, (ctx) => confirmTestCheckout(ctx.user, ctx.params.id!));
