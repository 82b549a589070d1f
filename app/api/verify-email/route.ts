import { endpoint } from '@/lib/api/endpoint';
import { userDashboardEndpoints } from '@/lib/users/endpoints';
import { verifyEmail } from '@/lib/users/verify-email';

// POST /api/verify-email — { token } from the link in the verification e-mail
export const POST = endpoint(userDashboardEndpoints.verifyEmail, (ctx) => verifyEmail(ctx.body.token));
