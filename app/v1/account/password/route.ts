import { endpoint } from '@/lib/api/endpoint';
import { Reply } from '@/lib/api/handler';
import { renewedSessionCookie } from '@/lib/auth/session-cookie';
import { userEndpoints } from '@/lib/users/endpoints';
import { sendPasswordChangedMail } from '@/lib/users/reset-password';
import { changePassword } from '@/lib/users/update-account';
import { after } from 'next/server';

// POST /v1/account/password — dashboard session only; { currentPassword, newPassword }; signs out
// every other session and sets this one's cookie at the new session version
export const POST = endpoint(userEndpoints.changePassword, async (ctx) => {
  const { sessionVersion, user } = await changePassword(ctx.user.id, ctx.body);
  const cookie = await renewedSessionCookie(ctx.req, sessionVersion);
  after(() => sendPasswordChangedMail(user, 'changed'));
  return new Reply({ changed: true }, 200, cookie ? { 'Set-Cookie': cookie } : {});
});
