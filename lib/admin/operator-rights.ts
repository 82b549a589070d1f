// How an account becomes the instance operator, by the installer's hand only (docs/security.md,
// "The operator"): the one-time claim link `npm start` prints while the installation has no
// operator, opened by a signed-in account, or `npm run operator -- --email <address>` from the
// shell, which also takes the right away. Each change is in the operator's audit log.
import { ApiError, invalidField } from '../api/errors';
import { hashSecret, newSecret } from '../crypto/secrets';
import { db } from '../db';
import { log } from '../log';
import { hasOperator } from '../users/instance-admin';
import { recordOperatorAction } from './actions';

export const CLAIM_PATH = '/claim-operator';

/**
 * A new claim token while the installation has no operator (null once it has one). A newer link
 * replaces the older ones, so only the link of the latest start works; it stays valid until used.
 */
export async function issueOperatorClaim(): Promise<string | null> {
  if (await hasOperator()) return null;
  const secret = newSecret('opc_');
  await db.$transaction([
    db.operatorClaim.updateMany({ where: { usedAt: null, revokedAt: null }, data: { revokedAt: new Date() } }),
    db.operatorClaim.create({ data: { tokenHash: secret.hash } }),
  ]);
  return secret.plaintext;
}

/** The signed-in `user` opens the claim link: they become the operator, and the link is spent. */
export async function claimOperator(user: { id: string; email: string }, token: string) {
  const claimed = await db.$transaction(async (tx) => {
    // One use: of two accounts opening the link at once, the first update wins.
    const spent = await tx.operatorClaim.updateMany({
      where: { tokenHash: hashSecret(token), usedAt: null, revokedAt: null },
      data: { usedAt: new Date(), usedByUserId: user.id },
    });
    if (spent.count !== 1) return false;
    await tx.user.update({ where: { id: user.id }, data: { operatorSince: new Date() } });
    await recordOperatorAction(tx, { actor: user, action: 'operator_claimed', targetLabel: user.email });
    return true;
  });
  if (!claimed) throw invalidField('token', 'this claim link is not valid: it was used, a newer start of the server replaced it, or it is mistyped');
  log.info({ event: 'operator-claimed', userId: user.id }, 'an account claimed the operator rights');
  return { operator: true, email: user.email };
}

/** `npm run operator`: gives (`grant: true`) or takes the operator right of the account with `email`. */
export async function setOperatorRight(email: string, grant: boolean) {
  const address = email.trim().toLowerCase();
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { email: address }, select: { id: true, operatorSince: true } });
    if (!user) throw new ApiError('not_found', `no account has the e-mail ${address}`);
    const changed = grant !== (user.operatorSince !== null);
    if (changed) {
      await tx.user.update({ where: { id: user.id }, data: { operatorSince: grant ? new Date() : null } });
      await recordOperatorAction(tx, { actor: null, action: grant ? 'operator_granted' : 'operator_revoked', targetLabel: address });
    }
    return { email: address, operator: grant, changed };
  });
}

/** The accounts that hold the right now, granted ones with the date (for `npm run operator -- --list`). */
export async function listOperators() {
  return db.user.findMany({ where: { operatorSince: { not: null } }, select: { email: true, operatorSince: true }, orderBy: { operatorSince: 'asc' } });
}
