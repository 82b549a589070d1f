import { operatorEndpoints } from '@/lib/admin/endpoints';
import { endpoint } from '@/lib/api/endpoint';
import { listPendingTestCheckouts } from '@/lib/billing/test-checkout';

// GET /v1/admin/test-checkouts — test-mode top-ups waiting for the operator to confirm, newest first
export const GET = endpoint(operatorEndpoints.listPendingTestCheckouts, () => listPendingTestCheckouts());
