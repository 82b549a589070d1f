import { endpoint } from '@/lib/api/endpoint';
import { billingEndpoints } from '@/lib/billing/endpoints';
import { listTransactions } from '@/lib/billing/transactions';

// GET /v1/billing/transactions — any member; the workspace's last 100 top-ups and refunds, newest first
export const GET = endpoint(billingEndpoints.listTransactions, (ctx) => listTransactions(ctx.workspace.id));
