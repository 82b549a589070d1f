// Access taken away in the control plane reaches this proxy's live sessions: a router key revoked
// (DELETE /v1/api-keys/:id) or rotated away (POST /v1/api-keys/rotate), a chat link rotated
// (POST /v1/mcp-links/rotate) or deleted (DELETE /v1/mcp-links/current), a workspace marked for
// deletion (DELETE /v1/account) or suspended by the operator (PATCH /v1/admin/workspaces/:id)
// arrives as NOTIFY on ACCESS_CHANNEL; the sessions opened with those keys or links, or in those
// workspaces, get a close frame with one of the codes below and a reason that says what to do
// (close-reasons.ts), and their rows end `closed` with the short reason. The codes are listed in
// docs/decisions.md ("Close codes"). Other holders of access (the MCP sessions, proxy/mcp/) are
// closed by the same events through `Revocable`.
import { db } from '../../lib/db';
import { log } from '../../lib/log';
import type { AccessEvent } from '../../lib/sessions/notify';
import { CLOSE_TEXTS } from './close-reasons';
import type { Revocation, SessionRegistry } from './registry';

export const KEY_REVOKED: Revocation = { code: 4001, reason: 'router key revoked', message: CLOSE_TEXTS.keyRevoked };
export const KEY_ROTATED: Revocation = { code: 4002, reason: 'router key rotated', message: CLOSE_TEXTS.keyRotated };
export const WORKSPACE_DELETION: Revocation = { code: 4003, reason: 'workspace marked for deletion', message: CLOSE_TEXTS.workspaceDeletion };
export const WORKSPACE_SUSPENDED: Revocation = { code: 4004, reason: 'workspace suspended', message: CLOSE_TEXTS.workspaceSuspended };
export const CHAT_LINK_REVOKED: Revocation = { code: 4005, reason: 'chat link rotated or deleted', message: CLOSE_TEXTS.chatLinkRevoked };

/** Something else that holds access by credential or workspace and ends when it is taken away. */
export interface Revocable {
  revoke(scope: { keyIds?: readonly string[]; workspaceIds?: readonly string[] }, revocation: Revocation): number;
  /** What is live now, for the recheck after a lost LISTEN connection. */
  holders(): Iterable<{ keyId: string; workspaceId: string; credential?: 'router_key' | 'chat_link' }>;
}

const CLOSES: Record<Exclude<AccessEvent['cause'], 'workspaces_restored'>, Revocation> = {
  key_revoked: KEY_REVOKED,
  keys_rotated: KEY_ROTATED,
  workspace_deletion: WORKSPACE_DELETION,
  workspace_suspended: WORKSPACE_SUSPENDED,
  chat_link_revoked: CHAT_LINK_REVOKED,
};

/** Applies one ACCESS_CHANNEL payload; a payload it cannot read is logged and ignored. */
export function applyAccessEvent(sessions: SessionRegistry, payload: string, others: readonly Revocable[] = []): void {
  const event = parse(payload);
  if (!event) {
    log.error({ payload: payload.slice(0, 200) }, 'unreadable access-revocation notification');
    return;
  }
  if ('workspaceIds' in event && event.cause === 'workspaces_restored') return sessions.restoreWorkspaces(event.workspaceIds);
  const revocation = CLOSES[event.cause as keyof typeof CLOSES];
  const scope = 'keyIds' in event ? { keyIds: event.keyIds } : { workspaceIds: event.workspaceIds };
  const closed = sessions.revoke(scope, revocation) + others.reduce((n, other) => n + other.revoke(scope, revocation), 0);
  if (closed > 0) log.info({ cause: event.cause, closed }, 'closed sessions whose access was revoked');
}

/**
 * After the LISTEN connection was lost, notifications sent meanwhile are gone: look up whether any
 * live session's key was revoked, its chat link rotated or deleted, or its workspace marked or
 * suspended, and close those (in `others` too).
 */
export async function recheckLiveSessions(sessions: SessionRegistry, others: readonly Revocable[] = []): Promise<void> {
  const live = [...sessions.all(), ...others.flatMap((other) => [...other.holders()])];
  if (live.length === 0) return;
  const keyIds = [...new Set(live.filter((s) => s.credential !== 'chat_link').map((s) => s.keyId))];
  const linkIds = [...new Set(live.filter((s) => s.credential === 'chat_link').map((s) => s.keyId))];
  const workspaceIds = [...new Set(live.map((s) => s.workspaceId))];
  const [revokedKeys, currentLinks, markedWorkspaces, suspendedWorkspaces] = await Promise.all([
    keyIds.length > 0 ? db.routerKey.findMany({ where: { id: { in: keyIds }, revokedAt: { not: null } }, select: { id: true } }) : [],
    linkIds.length > 0 ? db.chatLink.findMany({ where: { id: { in: linkIds } }, select: { id: true } }) : [],
    db.workspace.findMany({ where: { id: { in: workspaceIds }, deletionRequestedAt: { not: null } }, select: { id: true } }),
    db.workspace.findMany({ where: { id: { in: workspaceIds }, suspended: true, deletionRequestedAt: null }, select: { id: true } }),
  ]);
  // Keys gone altogether (their router was deleted) are not a revocation: their sessions keep
  // running. A chat link has no revoked state: rotating gives it a new id and deleting removes it,
  // so a link id that is no longer a row is exactly a link that was rotated or deleted.
  const current = new Set(currentLinks.map((l) => l.id));
  const goneLinks = linkIds.filter((id) => !current.has(id));
  const revoke = (scope: { keyIds?: string[]; workspaceIds?: string[] }, revocation: Revocation) => {
    for (const holder of [sessions, ...others]) holder.revoke(scope, revocation);
  };
  if (revokedKeys.length > 0) revoke({ keyIds: revokedKeys.map((k) => k.id) }, KEY_REVOKED);
  if (goneLinks.length > 0) revoke({ keyIds: goneLinks }, CHAT_LINK_REVOKED);
  if (markedWorkspaces.length > 0) revoke({ workspaceIds: markedWorkspaces.map((w) => w.id) }, WORKSPACE_DELETION);
  if (suspendedWorkspaces.length > 0) revoke({ workspaceIds: suspendedWorkspaces.map((w) => w.id) }, WORKSPACE_SUSPENDED);
}

const isIdList = (value: unknown): value is string[] => Array.isArray(value) && value.every((id) => typeof id === 'string');

function parse(payload: string): AccessEvent | null {
  try {
    const event = JSON.parse(payload) as { cause?: unknown; keyIds?: unknown; workspaceIds?: unknown };
    if ((event.cause === 'key_revoked' || event.cause === 'keys_rotated' || event.cause === 'chat_link_revoked') && isIdList(event.keyIds))
      return { cause: event.cause, keyIds: event.keyIds };
    if (
      (event.cause === 'workspace_deletion' || event.cause === 'workspace_suspended' || event.cause === 'workspaces_restored') &&
      isIdList(event.workspaceIds)
    ) {
      return { cause: event.cause, workspaceIds: event.workspaceIds };
    }
  } catch {
    // not JSON
  }
  return null;
}
