import { after } from 'next/server';
import { endpoint } from '@/lib/api/endpoint';
import { userDashboardEndpoints } from '@/lib/users/endpoints';
import { completePasswordReset, sendPasswordChangedMail } from '@/lib/users/reset-password';

// POST /api/password-reset/complete — { token, password } from the e-mailed link; signs out every
// session and revokes the account tokens
export const POST = endpoint(userDashboardEndpoints.completePasswordReset, async (ctx) => {
  const { user } = await completePasswordReset(ctx.body.token, ctx.body.password);
  after(() => sendPasswordChangedMail(user, 'reset'));
  return { reset: true };
});
