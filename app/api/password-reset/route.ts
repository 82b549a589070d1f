import { after } from 'next/server';
import { clientIp } from '@/lib/api/client-ip';
import { endpoint } from '@/lib/api/endpoint';
import { Reply } from '@/lib/api/handler';
import { userDashboardEndpoints } from '@/lib/users/endpoints';
import { sendPasswordResetMail, throttleResetRequest } from '@/lib/users/reset-password';

// POST /api/password-reset — { email }; 202 and the same body whether or not an account has the
// address: the lookup and the mail happen after the response, so its timing tells nothing either.
export const POST = endpoint(userDashboardEndpoints.requestPasswordReset, async (ctx) => {
  await throttleResetRequest(ctx.body.email, clientIp(ctx.req.headers));
  after(() => sendPasswordResetMail(ctx.body.email));
  return new Reply({ accepted: true }, 202);
});
