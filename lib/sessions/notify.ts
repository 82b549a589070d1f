// Signals to the proxies about live sessions, through NOTIFY (sent inside the writing transaction,
// so they fire on commit only).
import type { Tx } from '../db';

// A control-plane close reaches the proxy that holds the session through NOTIFY.
export const SESSION_CLOSE_CHANNEL = 'session_close';

/**
 * Access taken away: every proxy closes the live sessions opened with those router keys or chat
 * links (and the MCP sessions of those credentials), or in those workspaces (marked for deletion,
 * or suspended by the operator), and refuses them from then on; `workspaces_restored` lifts a
 * workspace's mark. `chat_link_revoked` names the ids of chat links that were rotated or deleted.
 */
export const ACCESS_CHANNEL = 'access_revoked';

export type AccessEvent =
  | { cause: 'key_revoked' | 'keys_rotated' | 'chat_link_revoked'; keyIds: string[] }
  | { cause: 'workspace_deletion' | 'workspace_suspended' | 'workspaces_restored'; workspaceIds: string[] };

// NOTIFY payloads stop at 8,000 bytes: a hundred cuids (25 characters each) stay far below.
const IDS_PER_NOTIFY = 100;

export async function notifyAccessRevoked(tx: Tx, event: AccessEvent): Promise<void> {
  const ids = 'keyIds' in event ? event.keyIds : event.workspaceIds;
  for (let i = 0; i < ids.length; i += IDS_PER_NOTIFY) {
    const chunk = ids.slice(i, i + IDS_PER_NOTIFY);
    const payload = JSON.stringify('keyIds' in event ? { cause: event.cause, keyIds: chunk } : { cause: event.cause, workspaceIds: chunk });
    await tx.$executeRaw`SELECT pg_notify(${ACCESS_CHANNEL}, ${payload})`;
  }
}
