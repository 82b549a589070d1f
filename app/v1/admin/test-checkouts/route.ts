import { endpoint } from '@/lib/api/endpoint';
import { listPendingTestCheckouts } from '@/lib/billing/test-checkout';
import { accountOps } from '@/lib/openapi/operations/accounts';

// GET /v1/admin/test-checkouts — test-mode top-ups waiting for the operator to confirm, newest first
export const GET = endpoint(accountOps.listPendingTestCheckouts, () => listPendingTestCheckouts());
