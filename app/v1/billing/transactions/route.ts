import { api } from '@/lib/api/handler';
import { listTransactions } from '@/lib/billing/transactions';

// GET /v1/billing/transactions — any member; the workspace's last 100 top-ups and refunds, newest first
export const GET = api({ errors: 'billing' }, (ctx) => listTransactions(ctx.workspace.id));
