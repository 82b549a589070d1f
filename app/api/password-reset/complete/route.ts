import { after } from 'next/server';
import { api } from '@/lib/api/handler';
import { passwordResetCompleteSchema } from '@/lib/users/schemas';
import { completePasswordReset, sendPasswordChangedMail } from '@/lib/users/reset-password';

// POST /api/password-reset/complete — { token, password } from the e-mailed link; signs out every
// session and revokes the account tokens
export const POST = api({ auth: 'none', workspace: 'none', body: passwordResetCompleteSchema }, async (ctx) => {
  const { user } = await completePasswordReset(ctx.body.token, ctx.body.password);
  after(() => sendPasswordChangedMail(user, 'reset'));
  return { reset: true };
});
