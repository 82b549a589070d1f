import { api } from '@/lib/api/handler';
import { claimOperatorSchema } from '@/lib/admin/schemas';
import { claimOperator } from '@/lib/admin/operator-rights';

// POST /api/operator/claim — { token } of the claim link `npm start` prints while the installation
// has no operator: the signed-in account becomes the operator (dashboard page: /claim-operator).
export const POST = api({ workspace: 'none', cookieOnly: true, body: claimOperatorSchema }, (ctx) => claimOperator(ctx.user, ctx.body.token));
