import { endpoint } from '@/lib/api/endpoint';
import { billingEndpoints } from '@/lib/billing/endpoints';
import { getTransaction } from '@/lib/billing/transactions';

// GET /v1/billing/transactions/:providerTxnId — any member; another workspace's is not_found
export const GET = endpoint(billingEndpoints.getTransaction, (ctx) => getTransaction(ctx.workspace.id, ctx.params.providerTxnId));
