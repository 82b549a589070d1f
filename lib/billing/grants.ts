// Credits the instance operator gives a workspace (support, trials, `npm run seed --
// --grant-cents`): one `grant` entry in the wallet's ledger, posted like any other movement
// (lib/billing/ledger.ts). Each grant is its own cause, so two grants of the same amount are two.
import { randomUUID } from 'node:crypto';
import { ApiError } from '../api/errors';
import { recordOperatorAction, type Actor } from '../admin/actions';
import { db } from '../db';
import { log } from '../log';
import { millicentsOfCents } from './charges';
import { post } from './ledger';
import { MAX_GRANT_CENTS } from './rates';

export { MAX_GRANT_CENTS } from './rates';

export interface Grant {
  cause: string;
  workspaceId: string;
  amountCents: number;
  balanceMillicents: bigint;
  note: string;
}

/**
 * Grants `cents` to the workspace's wallet. The entry's note records who granted it (the
 * operator's user id, or `command line` for scripts) and the operator's own note; the operator's
 * audit log gets the grant in the same transaction.
 */
export async function grantCredits(workspaceId: string, cents: number, note: string | null | undefined, by: Actor): Promise<Grant> {
  const byUserId = by?.id ?? null;
  if (!Number.isInteger(cents) || cents < 1 || cents > MAX_GRANT_CENTS) throw new RangeError(`a grant is a whole number of cents from 1 to ${MAX_GRANT_CENTS}`);
  const cause = `grant:${randomUUID()}`;
  const who = byUserId ? `granted by user ${byUserId}` : 'granted from the command line';
  const text = note?.trim() ? `${who}: ${note.trim()}` : who;
  const posted = await db.$transaction(async (tx) => {
    // The workspace row is locked so that a grant never lands on a workspace being deleted.
    const [found] = await tx.$queryRaw<{ id: string; name: string }[]>`SELECT "id", "name" FROM "Workspace" WHERE "id" = ${workspaceId} FOR SHARE`;
    if (!found) throw new ApiError('not_found', 'workspace not found');
    await recordOperatorAction(tx, {
      actor: by,
      action: 'credits_granted',
      workspaceId,
      targetLabel: found.name,
      detail: { amountCents: cents, note: note?.trim() || null, cause },
    });
    return post(tx, workspaceId, [{ kind: 'grant', amountMillicents: millicentsOfCents(cents), cause, note: text }]);
  });
  log.info({ event: 'credits-granted', workspaceId, amountCents: cents, byUserId, cause }, 'credits granted');
  return { cause, workspaceId, amountCents: cents, balanceMillicents: posted.balanceMillicents ?? 0n, note: text };
}
