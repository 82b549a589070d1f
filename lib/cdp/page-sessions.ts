// Which tab each CDP session of a connection belongs to, as the connection learns it from
// Target.attachedToTarget, Target.detachedFromTarget and Target.targetDestroyed. A page target is a
// tab of its own; the session of an iframe, a worker or a service worker belongs to the tab of the
// session it was attached from (flat mode names it). A tab opens with its first page session and
// closes with its last, or at once when its target is destroyed (a client that discovers targets
// often hears that before the detach). Each open tab carries its follower's own state. The
// recording plugin (its own sessions) and the trace plugin (the client's) follow tabs with it.
import type { Protocol } from './protocol';

/** What a follower is told of a target when one of its sessions attaches. */
export type AttachedTarget = Pick<Protocol.Target.TargetInfo, 'targetId' | 'type'> & Partial<Protocol.Target.TargetInfo>;

export interface OpenTab<T> {
  /** The tab's id: its page target's id. */
  tab: string;
  state: T;
}

export class PageSessions<T> {
  /** Every attached session: its tab (null when it belongs to none known) and whether it is the page's own. */
  private readonly sessions = new Map<string, { tab: string | null; page: boolean }>();
  private readonly open = new Map<string, { state: T; sessions: number }>();

  /** `newTab` gives an opening tab its state. */
  constructor(private readonly newTab: (target: AttachedTarget, sessionId: string) => T) {}

  /**
   * A session attached. For a page's session: its tab, `opened` when this session opened it. For
   * any other (an iframe, a worker) null: it is followed to its tab for tabOf() only.
   */
  attached(sessionId: string, target: AttachedTarget, parentSession?: string): (OpenTab<T> & { opened: boolean }) | null {
    const page = target.type === 'page';
    const tab = page ? target.targetId : this.tabOf(parentSession);
    this.sessions.set(sessionId, { tab, page });
    if (!page) return null;
    const known = this.open.get(target.targetId);
    if (known) {
      known.sessions++;
      return { tab: target.targetId, state: known.state, opened: false };
    }
    const state = this.newTab(target, sessionId);
    this.open.set(target.targetId, { state, sessions: 1 });
    return { tab: target.targetId, state, opened: true };
  }

  /** A session detached: the tab it closed (its last page session), else null. */
  detached(sessionId: string): OpenTab<T> | null {
    const session = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    if (!session?.page || session.tab === null) return null;
    const entry = this.open.get(session.tab);
    if (!entry || --entry.sessions > 0) return null;
    this.open.delete(session.tab);
    return { tab: session.tab, state: entry.state };
  }

  /** A target was destroyed: the tab it closed, if it was an open one. */
  destroyed(targetId: string): OpenTab<T> | null {
    const entry = this.open.get(targetId);
    if (!entry) return null;
    this.open.delete(targetId);
    return { tab: targetId, state: entry.state };
  }

  /** The tab a session belongs to (also after the tab closed, until the session detaches). */
  tabOf(sessionId: string | undefined): string | null {
    return sessionId === undefined ? null : (this.sessions.get(sessionId)?.tab ?? null);
  }

  /** An open tab's state, by tab id. */
  get(tab: string): T | undefined {
    return this.open.get(tab)?.state;
  }

  /** The state of the open tab whose page session this is. */
  ofPageSession(sessionId: string | undefined): OpenTab<T> | null {
    const session = sessionId === undefined ? undefined : this.sessions.get(sessionId);
    if (!session?.page || session.tab === null) return null;
    const entry = this.open.get(session.tab);
    return entry ? { tab: session.tab, state: entry.state } : null;
  }

  /** The page sessions of the open tabs. */
  pageSessions(): string[] {
    return [...this.sessions].filter(([, s]) => s.page && s.tab !== null && this.open.has(s.tab)).map(([id]) => id);
  }

  /** The open tabs' states, in the order they opened. */
  states(): T[] {
    return [...this.open.values()].map((entry) => entry.state);
  }
}
