// The browsers one caller owns: an MCP session, or one named `browse` session of the command line.
// Nothing here is shared between callers, so one caller can never list, read or drive another's
// browser; ids of closed sessions are remembered a while to say why a call found them gone.
import { DEFAULT_POLICY, type AgentPolicy } from './policy';
import { AgentSession } from './session';
import { AgentError, type AgentEndpoint, type OpenOptions, type ResolvedOptions, type SessionState } from './types';

const TOMBSTONES = 50;

export class SessionSet {
  private readonly sessions = new Map<string, AgentSession>();
  private readonly gone = new Map<string, string>();
  private opening = 0;
  readonly policy: AgentPolicy;

  constructor(
    private readonly endpoint: AgentEndpoint,
    policy: Partial<AgentPolicy> = {},
  ) {
    this.policy = { ...DEFAULT_POLICY, ...policy };
  }

  get size(): number {
    return this.sessions.size;
  }

  async open(options: OpenOptions = {}): Promise<AgentSession> {
    if (this.sessions.size + this.opening >= this.policy.maxSessions) {
      throw new AgentError(
        'invalid',
        `at most ${this.policy.maxSessions} browsers can be open at once here; close one with browser_session {"action":"close","sessionId":"…"} first`,
      );
    }
    this.opening++;
    try {
      const resolved: ResolvedOptions = (await this.endpoint.resolve?.(options)) ?? {
        record: options.record ?? false,
        trace: options.trace ?? false,
        profile: options.profile ?? null,
        saveProfile: options.saveProfile ?? false,
        pageConsole: options.pageConsole ?? false,
      };
      resolved.idleMinutes = options.idleMinutes;
      const session = await AgentSession.open(this.endpoint, resolved, this.policy);
      this.sessions.set(session.id, session);
      session.onClose((reason) => {
        this.sessions.delete(session.id);
        this.gone.set(session.id, reason);
        if (this.gone.size > TOMBSTONES) this.gone.delete(this.gone.keys().next().value!);
      });
      return session;
    } finally {
      this.opening--;
    }
  }

  /**
   * The session a call means: the named one, or the only one open. With several open and none
   * named, the call is refused rather than guessed.
   */
  get(sessionId?: string): AgentSession {
    if (sessionId) {
      const session = this.sessions.get(sessionId);
      if (session) return session;
      const reason = this.gone.get(sessionId);
      if (reason) throw new AgentError('closed', `browser session ${sessionId} is closed: ${reason}. Open a new one with browser_session {"action":"open"}.`);
      throw new AgentError('not_found', `no browser session ${sessionId} here; list yours with browser_session {"action":"list"}`);
    }
    if (this.sessions.size === 1) return this.sessions.values().next().value!;
    if (this.sessions.size === 0) {
      const last = [...this.gone].at(-1);
      const why = last ? ` (the last one, ${last[0]}, ${last[1].replace(/^closed /, 'was closed ')})` : '';
      throw new AgentError('not_found', `no browser is open${why}; open one with browser_session {"action":"open"}`);
    }
    throw new AgentError('invalid', `${this.sessions.size} browsers are open: name one with sessionId (${[...this.sessions.keys()].join(', ')})`);
  }

  async list(): Promise<SessionState[]> {
    return Promise.all([...this.sessions.values()].map((s) => s.state()));
  }

  async close(sessionId: string | undefined, reason = 'closed by the agent'): Promise<AgentSession> {
    const session = this.get(sessionId);
    await session.close(reason);
    return session;
  }

  async closeAll(reason: string): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.close(reason)));
  }
}
