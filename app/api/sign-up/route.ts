import { api, created } from '@/lib/api/handler';
import { ApiError } from '@/lib/api/errors';
import { clientIp } from '@/lib/api/client-ip';
import { allowAttempt } from '@/lib/rate-limit/buckets';
import { signUpSchema } from '@/lib/users/schemas';
import { signUp } from '@/lib/users/sign-up';
import { serializeUser } from '@/lib/users/get-me';
import { settings } from '@/lib/config/settings';

// POST /api/sign-up — dashboard sign-up (not part of the bearer API)
export const POST = api({ auth: 'optional', workspace: 'none', body: signUpSchema }, async (ctx) => {
  if (!(await allowAttempt(`sign-up-ip:${clientIp(ctx.req.headers)}`, settings().signUpsPerHourPerIp, 3_600_000))) {
    throw new ApiError('rate_limited', 'too many sign-ups from this address; try again later', { 'Retry-After': '3600' });
  }
  const { user } = await signUp(ctx.body);
  return created({ user: serializeUser(user) });
});
