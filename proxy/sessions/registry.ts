// Live sessions of this proxy process: idle timeout and lifetime, control-plane close, drain.
import type { Relay, RelayOutcome } from '../relay/types';

export const SESSION_LIFETIME_MS = 4 * 3_600_000;

export interface LiveSession {
  id: string;
  routerId: string;
  startedAt: number;
  idleTimeoutMs: number;
  relay: Relay;
  ended: Promise<void>;
}

export class SessionRegistry {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly emptyWaiters: (() => void)[] = [];

  constructor(private readonly now: () => number = Date.now, sweepMs = 250) {
    this.sweeper = setInterval(() => this.sweep(), sweepMs);
    this.sweeper.unref();
  }

  add(session: LiveSession): void {
    this.sessions.set(session.id, session);
    void session.ended.then(() => {
      this.sessions.delete(session.id);
      if (this.sessions.size === 0) this.emptyWaiters.splice(0).forEach((w) => w());
    });
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

  close(id: string, code: number, reason: string, outcome: RelayOutcome): boolean {
    const session = this.sessions.get(id);
    session?.relay.close(code, reason, outcome);
    return session !== undefined;
  }

  /** Resolves when no session is left or the deadline passes (then the rest are force-closed). */
  async drain(deadlineMs: number): Promise<void> {
    if (this.sessions.size > 0) {
      await Promise.race([new Promise<void>((r) => this.emptyWaiters.push(r)), new Promise<void>((r) => setTimeout(r, deadlineMs).unref())]);
    }
    const rest = [...this.sessions.values()];
    for (const s of rest) s.relay.close(1001, 'proxy shutting down', { state: 'errored', reason: 'the proxy shut down before the session ended' });
    await Promise.all(rest.map((s) => s.ended));
    clearInterval(this.sweeper);
  }

  private sweep(): void {
    const now = this.now();
    for (const s of this.sessions.values()) {
      if (now - s.relay.stats.lastActivity >= s.idleTimeoutMs) {
        s.relay.close(4008, 'idle timeout', { state: 'closed', reason: 'idle timeout' });
      } else if (now - s.startedAt >= SESSION_LIFETIME_MS) {
        s.relay.close(4009, 'session lifetime reached', { state: 'closed', reason: 'lifetime of 4 hours reached' });
      }
    }
  }
}
