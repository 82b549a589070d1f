import { endpoint } from '@/lib/api/endpoint';
import { userDashboardEndpoints } from '@/lib/users/endpoints';
import { resendVerification } from '@/lib/users/verify-email';

// POST /api/verify-email/resend — signed in; sends a new verification link
export const POST = endpoint(userDashboardEndpoints.resendVerification, (ctx) => resendVerification(ctx.user));
