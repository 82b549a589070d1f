// The overview's "Getting started" checklist (docs/api.md, Overview), computed from the database
// on every read, so it follows what was done wherever it was done (dashboard, API, a script).
import { db } from '../db';
import { CHECKLIST_ITEMS, type ChecklistItemId } from './schemas';

/**
 * One statement of EXISTS tests on indexed columns:
 * - add_provider: an enabled provider on any router of the workspace;
 * - create_access_token: the caller holds an access token that is not revoked (tokens are a user's);
 * - invite_teammate: someone else is a member, or an invitation is pending;
 * - first_session: a connect or agent session, or a successful data-API call (both are sessions for billing).
 */
export async function readChecklist(workspaceId: string, userId: string, now = new Date()) {
  const [row] = await db.$queryRaw<Record<ChecklistItemId, boolean>[]>`
    SELECT
      EXISTS (SELECT 1 FROM "Provider" WHERE "workspaceId" = ${workspaceId} AND "enabled") AS "add_provider",
      EXISTS (SELECT 1 FROM "AccessToken" WHERE "userId" = ${userId} AND "revokedAt" IS NULL) AS "create_access_token",
      (EXISTS (SELECT 1 FROM "Membership" WHERE "workspaceId" = ${workspaceId} AND "userId" <> ${userId})
        OR EXISTS (SELECT 1 FROM "Invitation" WHERE "workspaceId" = ${workspaceId} AND "acceptedAt" IS NULL AND "declinedAt" IS NULL AND "expiresAt" > ${now})) AS "invite_teammate",
      (EXISTS (SELECT 1 FROM "SessionLog" WHERE "workspaceId" = ${workspaceId} AND NOT "playground")
        OR EXISTS (SELECT 1 FROM "DataApiUsage" WHERE "workspaceId" = ${workspaceId} AND "calls" > 0)) AS "first_session"`;
  const items = CHECKLIST_ITEMS.map((id) => ({ id, done: Boolean(row?.[id]) }));
  return { complete: items.every((item) => item.done), items };
}
