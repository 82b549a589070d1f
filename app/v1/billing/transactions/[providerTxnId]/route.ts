import { endpoint } from '@/lib/api/endpoint';
import { getTransaction } from '@/lib/billing/transactions';
import { billingOps } from '@/lib/openapi/operations/billing';

// GET /v1/billing/transactions/:providerTxnId — any member; another workspace's is not_found
export const GET = endpoint(billingOps.getTransaction, (ctx) => getTransaction(ctx.workspace.id, ctx.params.providerTxnId));
