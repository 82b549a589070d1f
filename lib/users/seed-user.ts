// The scripted entry point for demos and black-box tests (npm run seed, and the test suites). The
// address it is given counts as proven: whoever runs it has the installation's shell.
import { db } from '../db';
import { ApiError } from '../api/errors';
import { verifyPassword } from '../auth/password';
import { createAccessToken } from '../tokens/access-tokens';
import { signUpSchema } from './schemas';
import { signUp } from './sign-up';

/** `passwordHash`: the password's hash made beforehand (hashPassword), to seed many accounts with one password quickly. */
export async function seedUser(input: { email: string; password: string; name?: string; passwordHash?: string }) {
  const parsed = signUpSchema.parse({ email: input.email, password: input.password, name: input.name ?? input.email.split('@')[0] });
  let user = await db.user.findUnique({ where: { email: parsed.email } });
  if (user) {
    if (!(await verifyPassword(parsed.password, user.passwordHash))) throw new ApiError('unauthenticated', 'that e-mail exists with another password');
    if (!user.emailProvenAt)
      user = await db.user.update({ where: { id: user.id }, data: { emailVerifiedAt: user.emailVerifiedAt ?? new Date(), emailProvenAt: new Date() } });
  } else {
    user = (await signUp(parsed, { verified: true, passwordHash: input.passwordHash })).user;
  }
  const membership = await db.membership.findFirst({ where: { userId: user.id, role: 'owner' }, orderBy: { joinedAt: 'asc' } });
  if (!membership) throw new Error('the user owns no workspace');
  const router = await db.router.findFirst({ where: { workspaceId: membership.workspaceId }, orderBy: { createdAt: 'asc' } });
  const token = await createAccessToken(user.id, `seed ${new Date().toISOString().slice(0, 19)}`);
  return { userId: user.id, workspaceId: membership.workspaceId, routerId: router?.id ?? null, accessToken: token.plaintextToken };
}
