import { endpoint } from '@/lib/api/endpoint';
import { listTransactions } from '@/lib/billing/transactions';
import { billingOps } from '@/lib/openapi/operations/billing';

// GET /v1/billing/transactions — any member; the workspace's last 100 top-ups and refunds, newest first
export const GET = endpoint(billingOps.listTransactions, (ctx) => listTransactions(ctx.workspace.id));
