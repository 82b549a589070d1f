import { operatorDashboardEndpoints } from '@/lib/admin/endpoints';
import { claimOperator } from '@/lib/admin/operator-rights';
import { endpoint } from '@/lib/api/endpoint';

// POST /api/operator/claim — { token } of the claim link `npm start` prints while the installation
// has no operator: the signed-in account becomes the operator (dashboard page: /claim-operator).
export const POST = endpoint(operatorDashboardEndpoints.claimOperator, (ctx) => claimOperator(ctx.user, ctx.body.token));
