// Access taken away in the control plane reaches this proxy's live sessions: a router key revoked
// (DELETE /v1/api-keys/:id) or rotated away (POST /v1/api-keys/rotate), a workspace marked for
// deletion (DELETE /v1/account) or suspended by the operator (PATCH /v1/admin/workspaces/:id)
// arrives as NOTIFY on ACCESS_CHANNEL; the sessions opened with those
// keys, or in those workspaces, get a close frame with one of the codes below, and their rows end
// `closed` with the same reason. The codes are listed in docs/decisions.md ("Close codes").
import { db } from '../../lib/db';
import { log } from '../../lib/log';
import type { AccessEvent } from '../../lib/sessions/notify';
import type { Revocation, SessionRegistry } from './registry';

export const KEY_REVOKED: Revocation = { code: 4001, reason: 'router key revoked' };
export const KEY_ROTATED: Revocation = { code: 4002, reason: 'router key rotated' };
export const WORKSPACE_DELETION: Revocation = { code: 4003, reason: 'workspace marked for deletion' };
export const WORKSPACE_SUSPENDED: Revocation = { code: 4004, reason: 'workspace suspended' };

const CLOSES: Record<Exclude<AccessEvent['cause'], 'workspaces_restored'>, Revocation> = {
  key_revoked: KEY_REVOKED,
  keys_rotated: KEY_ROTATED,
  workspace_deletion: WORKSPACE_DELETION,
  workspace_suspended: WORKSPACE_SUSPENDED,
};

/** Applies one ACCESS_CHANNEL payload; a payload it cannot read is logged and ignored. */
export function applyAccessEvent(sessions: SessionRegistry, payload: string): void {
  const event = parse(payload);
  if (!event) {
    log.error({ payload: payload.slice(0, 200) }, 'unreadable access-revocation notification');
    return;
  }
  if ('workspaceIds' in event && event.cause === 'workspaces_restored') return sessions.restoreWorkspaces(event.workspaceIds);
  const revocation = CLOSES[event.cause as keyof typeof CLOSES];
  const closed = sessions.revoke('keyIds' in event ? { keyIds: event.keyIds } : { workspaceIds: event.workspaceIds }, revocation);
  if (closed > 0) log.info({ cause: event.cause, closed }, 'closed sessions whose access was revoked');
}

/**
 * After the LISTEN connection was lost, notifications sent meanwhile are gone: look up whether any
 * live session's key was revoked or its workspace marked or suspended, and close those.
 */
export async function recheckLiveSessions(sessions: SessionRegistry): Promise<void> {
  const live = [...sessions.all()];
  if (live.length === 0) return;
  const keyIds = [...new Set(live.map((s) => s.keyId))];
  const workspaceIds = [...new Set(live.map((s) => s.workspaceId))];
  const [revokedKeys, markedWorkspaces, suspendedWorkspaces] = await Promise.all([
    db.routerKey.findMany({ where: { id: { in: keyIds }, revokedAt: { not: null } }, select: { id: true } }),
    db.workspace.findMany({ where: { id: { in: workspaceIds }, deletionRequestedAt: { not: null } }, select: { id: true } }),
    db.workspace.findMany({ where: { id: { in: workspaceIds }, suspended: true, deletionRequestedAt: null }, select: { id: true } }),
  ]);
  // Keys gone altogether (their router was deleted) are not a revocation: their sessions keep running.
  if (revokedKeys.length > 0) sessions.revoke({ keyIds: revokedKeys.map((k) => k.id) }, KEY_REVOKED);
  if (markedWorkspaces.length > 0) sessions.revoke({ workspaceIds: markedWorkspaces.map((w) => w.id) }, WORKSPACE_DELETION);
  if (suspendedWorkspaces.length > 0) sessions.revoke({ workspaceIds: suspendedWorkspaces.map((w) => w.id) }, WORKSPACE_SUSPENDED);
}

const isIdList = (value: unknown): value is string[] => Array.isArray(value) && value.every((id) => typeof id === 'string');

function parse(payload: string): AccessEvent | null {
  try {
    const event = JSON.parse(payload) as { cause?: unknown; keyIds?: unknown; workspaceIds?: unknown };
    if ((event.cause === 'key_revoked' || event.cause === 'keys_rotated') && isIdList(event.keyIds)) return { cause: event.cause, keyIds: event.keyIds };
    if ((event.cause === 'workspace_deletion' || event.cause === 'workspace_suspended' || event.cause === 'workspaces_restored') && isIdList(event.workspaceIds)) {
      return { cause: event.cause, workspaceIds: event.workspaceIds };
    }
  } catch {
    // not JSON
  }
  return null;
}
