// The MCP sessions of a process, each owned by the credential that opened it and holding its own
// browsers (a SessionSet). They end when the client ends them (DELETE /mcp), when they go idle (no
// request for IDLE_MS and no live browser), and when the process stops (closeAll before the drain,
// so the browsers end cleanly). McpSessions serves the self-hosted gateway (one owner); the hosted
// proxy's McpRegistry also ends them when their credential or workspace loses access (the same
// NOTIFY that closes connect sessions, through `revoke`).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { log } from '../../lib/log';
import type { SessionSet } from '../agent/session-set';
import type { McpCredential } from '../auth/authenticate';
import type { RouterKeyIdentity } from '../auth/router-key';
import type { Revocable } from '../sessions/revocations';
import type { Revocation } from '../sessions/registry';

/** Live MCP sessions one credential may hold; the next initialize is refused (never an old one closed). */
export const MCP_SESSIONS_PER_CREDENTIAL = 20;
/** An MCP session with no request for this long and no live browser is closed. */
export const MCP_IDLE_MS = 30 * 60_000;

/** What every MCP session has, the hosted proxy's and the self-hosted gateway's. */
export interface McpSessionBase {
  /** The Mcp-Session-Id. */
  id: string;
  /** Who opened it (RouterKey.id or ChatLink.id; the gateway's one owner): only they may use it. */
  credentialId: string;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  browsers: SessionSet;
  lastRequestAt: number;
  /** POST requests being answered now: a long tool call keeps its session from going idle. */
  inFlight: number;
}

/** A hosted MCP session: opened by a chat link or router key of a workspace. */
export interface McpSession extends McpSessionBase {
  credential: McpCredential;
  workspaceId: string;
  /** As of the latest request: what the browsers it opens next run under. */
  identity: RouterKeyIdentity;
}

export interface McpRegistryOptions {
  maxPerCredential?: number;
  idleMs?: number;
  sweepMs?: number;
  now?: () => number;
}

/** The live MCP sessions of one process: counted per owner, closed when idle, all closed at shutdown. */
export class McpSessions<S extends McpSessionBase> {
  protected readonly sessions = new Map<string, S>();
  private readonly sweeper: NodeJS.Timeout;
  readonly maxPerCredential: number;
  private readonly idleMs: number;
  private readonly now: () => number;

  constructor(options: McpRegistryOptions = {}) {
    this.maxPerCredential = options.maxPerCredential ?? MCP_SESSIONS_PER_CREDENTIAL;
    this.idleMs = options.idleMs ?? MCP_IDLE_MS;
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => this.sweep(), options.sweepMs ?? 60_000);
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): S | undefined {
    return this.sessions.get(id);
  }

  countFor(credentialId: string): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.credentialId === credentialId) n++;
    return n;
  }

  add(session: S): void {
    this.sessions.set(session.id, session);
  }

  /** Marks a request of the session; the returned function marks its end (POST only counts as in flight). */
  begin(session: S, counts: boolean): () => void {
    session.lastRequestAt = this.now();
    if (!counts) return () => {};
    session.inFlight++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      session.inFlight--;
      session.lastRequestAt = this.now();
    };
  }

  /** Ends the session: its browsers first (their sessions end normally), then its transport. */
  async close(id: string, reason: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    await session.browsers
      .closeAll(reason)
      .catch((err: Error) => log.error({ mcpSessionId: id, err: err.message }, 'closing the browsers of an MCP session failed'));
    await session.server.close().catch(() => {});
  }

  async closeAll(reason: string): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id, reason)));
  }

  /** Closes the sessions idle for IDLE_MS with no live browser (tests call it with a fake clock). */
  sweep(): void {
    const now = this.now();
    for (const s of [...this.sessions.values()]) {
      if (s.inFlight === 0 && s.browsers.size === 0 && now - s.lastRequestAt >= this.idleMs) void this.close(s.id, 'MCP session idle');
    }
  }
}

/** The hosted proxy's sessions, which also end when their credential or workspace loses access. */
export class McpRegistry extends McpSessions<McpSession> implements Revocable {
  revoke(scope: { keyIds?: readonly string[]; workspaceIds?: readonly string[] }, revocation: Revocation): number {
    const keys = new Set(scope.keyIds ?? []);
    const workspaces = new Set(scope.workspaceIds ?? []);
    const doomed = [...this.sessions.values()].filter((s) => keys.has(s.credentialId) || workspaces.has(s.workspaceId));
    for (const s of doomed) void this.close(s.id, revocation.reason);
    return doomed.length;
  }

  *holders(): Iterable<{ keyId: string; workspaceId: string; credential: McpCredential }> {
    for (const s of this.sessions.values()) yield { keyId: s.credentialId, workspaceId: s.workspaceId, credential: s.credential };
  }
}
