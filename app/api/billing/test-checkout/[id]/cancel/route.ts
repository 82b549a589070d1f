import { api } from '@/lib/api/handler';
import { cancelTestCheckout } from '@/lib/billing/test-checkout';

// POST /api/billing/test-checkout/:id/cancel — the operator or a member of the workspace abandons a test checkout (it expires)
export const POST = api({ workspace: 'none', errors: 'billing' }, (ctx) => cancelTestCheckout(ctx.user, ctx.params.id!));
