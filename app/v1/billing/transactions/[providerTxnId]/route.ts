import { api } from '@/lib/api/handler';
import { getTransaction } from '@/lib/billing/transactions';

// GET /v1/billing/transactions/:providerTxnId — any member; another workspace's is not_found
export const GET = api({ errors: 'billing' }, (ctx) => getTransaction(ctx.workspace.id, ctx.params.providerTxnId!));
