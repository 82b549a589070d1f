import { clientIp } from '@/lib/api/client-ip';
import { endpoint } from '@/lib/api/endpoint';
import { ApiError } from '@/lib/api/errors';
import { created } from '@/lib/api/handler';
import { settings } from '@/lib/config/settings';
import { allowAttempt } from '@/lib/rate-limit/buckets';
import { userDashboardEndpoints } from '@/lib/users/endpoints';
import { serializeUser } from '@/lib/users/get-me';
import { signUp } from '@/lib/users/sign-up';

// POST /api/sign-up — dashboard sign-up (not part of the bearer API)
export const POST = endpoint(userDashboardEndpoints.signUp, async (ctx) => {
  if (!(await allowAttempt(`sign-up-ip:${clientIp(ctx.req.headers)}`, settings().signUpsPerHourPerIp, 3_600_000))) {
    throw new ApiError('rate_limited', 'too many sign-ups from this address; try again later', { 'Retry-After': '3600' });
  }
  const { user } = await signUp(ctx.body);
  return created({ user: serializeUser(user) });
});
