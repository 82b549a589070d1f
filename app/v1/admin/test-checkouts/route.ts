import { api } from '@/lib/api/handler';
import { requireOperator } from '@/lib/admin/workspaces';
import { listPendingTestCheckouts } from '@/lib/billing/test-checkout';

// GET /v1/admin/test-checkouts — test-mode top-ups waiting for the operator to confirm, newest first
export const GET = api({ workspace: 'none' }, async (ctx) => {
  await requireOperator(ctx.user);
  return listPendingTestCheckouts();
});
