// Live sessions of this proxy process: idle timeout and lifetime, control-plane close, access
// revocation (a router key revoked or rotated, a chat link rotated or deleted, a workspace marked
// for deletion), drain.
import type { Relay, RelayOutcome } from '../relay/types';
import { CLOSE_TEXTS, idleTimeoutText, SESSION_LIFETIME_MS } from './close-reasons';

export { SESSION_LIFETIME_MS } from './close-reasons';

export interface LiveSession {
  id: string;
  routerId: string;
  /** The credential the session was opened with: a router key's id, or a chat link's (an agent's browser). */
  keyId: string;
  /** Which kind of credential `keyId` names (router_key when absent). */
  credential?: 'router_key' | 'chat_link';
  workspaceId: string;
  startedAt: number;
  idleTimeoutMs: number;
  relay: Relay;
  ended: Promise<void>;
}

/** Why access was taken away. */
export interface Revocation {
  /** The close frame's code. */
  code: number;
  /** The session row's reason (short: the dashboard, the webhooks). */
  reason: string;
  /** The close frame's reason: what the client reads, saying what to do (close-reasons.ts). */
  message: string;
}

/**
 * How long a revocation is remembered for sessions that were still being opened when it came: a
 * connect authenticates first, then may wait in the router queue (up to 24 hours) and dial, and
 * its session registers only after that.
 */
export const REVOCATION_MEMORY_MS = 25 * 3_600_000;

export class SessionRegistry {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly emptyWaiters: (() => void)[] = [];
  /** `key:<id>` / `workspace:<id>` → the revocation and when it came. */
  private readonly revoked = new Map<string, Revocation & { at: number }>();
  private prunedAt = 0;

  constructor(
    private readonly now: () => number = Date.now,
    sweepMs = 250,
  ) {
    this.sweeper = setInterval(() => this.sweep(), sweepMs);
    this.sweeper.unref();
  }

  add(session: LiveSession): void {
    this.sessions.set(session.id, session);
    void session.ended.then(() => {
      this.sessions.delete(session.id);
      if (this.sessions.size === 0) this.emptyWaiters.splice(0).forEach((w) => w());
    });
    // Authenticated before a revocation, registered after it: it never gets to run.
    const revocation = this.revoked.get(`key:${session.keyId}`) ?? this.revoked.get(`workspace:${session.workspaceId}`);
    if (revocation) session.relay.close(revocation.code, revocation.message, { state: 'closed', reason: revocation.reason });
  }

  has(id: string): boolean {
    return this.sessions.has(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  all(): IterableIterator<LiveSession> {
    return this.sessions.values();
  }

  countFor(routerId: string): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.routerId === routerId) n++;
    return n;
  }

  /** Closes one session: `reason` is what the client reads (close-reasons.ts), `outcome` what its row says. */
  close(id: string, code: number, reason: string, outcome: RelayOutcome): boolean {
    const session = this.sessions.get(id);
    session?.relay.close(code, reason, outcome);
    return session !== undefined;
  }

  /**
   * Closes the sessions opened with these keys or in these workspaces, and every one of them that
   * registers later (see REVOCATION_MEMORY_MS). The session rows end `closed` with the reason.
   * Returns the number closed now.
   */
  revoke(scope: { keyIds?: readonly string[]; workspaceIds?: readonly string[] }, revocation: Revocation): number {
    const keys = new Set(scope.keyIds ?? []);
    const workspaces = new Set(scope.workspaceIds ?? []);
    const at = this.now();
    for (const id of keys) this.revoked.set(`key:${id}`, { ...revocation, at });
    for (const id of workspaces) this.revoked.set(`workspace:${id}`, { ...revocation, at });
    let closed = 0;
    for (const s of [...this.sessions.values()]) {
      if (!keys.has(s.keyId) && !workspaces.has(s.workspaceId)) continue;
      s.relay.close(revocation.code, revocation.message, { state: 'closed', reason: revocation.reason });
      closed++;
    }
    return closed;
  }

  /** A workspace's mark was lifted (the account was restored): its new sessions may run. */
  restoreWorkspaces(workspaceIds: readonly string[]): void {
    for (const id of workspaceIds) this.revoked.delete(`workspace:${id}`);
  }

  /** Resolves when no session is left or the deadline passes (then the rest are force-closed). */
  async drain(deadlineMs: number): Promise<void> {
    if (this.sessions.size > 0) {
      await Promise.race([new Promise<void>((r) => this.emptyWaiters.push(r)), new Promise<void>((r) => setTimeout(r, deadlineMs).unref())]);
    }
    const rest = [...this.sessions.values()];
    for (const s of rest) s.relay.close(1001, CLOSE_TEXTS.shutdown, { state: 'errored', reason: 'the proxy shut down before the session ended' });
    await Promise.all(rest.map((s) => s.ended));
    clearInterval(this.sweeper);
  }

  private sweep(): void {
    const now = this.now();
    for (const s of this.sessions.values()) {
      if (now - s.relay.stats.lastActivity >= s.idleTimeoutMs) {
        s.relay.close(4008, idleTimeoutText(s.idleTimeoutMs), { state: 'closed', reason: 'idle timeout' });
      } else if (now - s.startedAt >= SESSION_LIFETIME_MS) {
        s.relay.close(4009, CLOSE_TEXTS.lifetime, { state: 'closed', reason: 'lifetime of 4 hours reached' });
      }
    }
    if (now - this.prunedAt >= 60_000) {
      this.prunedAt = now;
      for (const [scope, r] of this.revoked) if (now - r.at >= REVOCATION_MEMORY_MS) this.revoked.delete(scope);
    }
  }
}
