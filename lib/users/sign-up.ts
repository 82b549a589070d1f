// Sign-up: the user, a workspace they own with its default router and first key, and an e-mail
// verification link. The password hash is computed before the transaction opens.
import { db } from '../db';
import { ApiError } from '../api/errors';
import { hashPassword } from '../auth/password';
import { createWorkspace } from '../workspaces/create-workspace';
import { sendVerificationMail } from './verify-email';

export async function signUp(input: { name: string; email: string; password: string }, options: { verified?: boolean; passwordHash?: string } = {}) {
  // A caller that creates many accounts with one password (the tests) may hash it once.
  const passwordHash = options.passwordHash ?? (await hashPassword(input.password));
  const result = await db.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email: input.email }, select: { id: true } })) {
      throw new ApiError('conflict', 'an account with this e-mail already exists; sign in instead');
    }
    const user = await tx.user.create({
      data: { email: input.email, name: input.name, passwordHash, ...(options.verified ? { emailVerifiedAt: new Date(), emailProvenAt: new Date() } : {}) },
    });
    const created = await createWorkspace(tx, { ownerId: user.id, name: `${input.name.split(' ')[0]}'s workspace` });
    await tx.user.update({ where: { id: user.id }, data: { activeWorkspaceId: created.workspace.id } });
    return { user, ...created };
  });
  if (!options.verified) await sendVerificationMail(result.user);
  return result;
}
