// The MCP sessions of this proxy process, each owned by the credential that opened it (a chat link
// or a router key, by id) and holding its own browsers (a SessionSet). They end when the client
// ends them (DELETE /mcp), when they go idle (no request for IDLE_MS and no live browser), when
// their credential or workspace loses access (the same NOTIFY that closes connect sessions, through
// `revoke`), and when the proxy stops (closeAll before the drain, so the browsers end cleanly).
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

export interface McpSession {
  /** The Mcp-Session-Id. */
  id: string;
  /** The credential that opened it (RouterKey.id or ChatLink.id): only that one may use it. */
  credentialId: string;
  credential: McpCredential;
  workspaceId: string;
  /** As of the latest request: what the browsers it opens next run under. */
  identity: RouterKeyIdentity;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  browsers: SessionSet;
  lastRequestAt: number;
  /** POST requests being answered now: a long tool call keeps its session from going idle. */
  inFlight: number;
}

export interface McpRegistryOptions {
  maxPerCredential?: number;
  idleMs?: number;
  sweepMs?: number;
  now?: () => number;
}

export class McpRegistry implements Revocable {
  private readonly sessions = new Map<string, McpSession>();
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

  get(id: string): McpSession | undefined {
    return this.sessions.get(id);
  }

  countFor(credentialId: string): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.credentialId === credentialId) n++;
    return n;
  }

  add(session: McpSession): void {
    this.sessions.set(session.id, session);
  }

  /** Marks a request of the session; the returned function marks its end (POST only counts as in flight). */
  begin(session: McpSession, identity: RouterKeyIdentity, counts: boolean): () => void {
    session.identity = identity;
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
    await session.browsers.closeAll(reason).catch((err: Error) => log.error({ mcpSessionId: id, err: err.message }, 'closing the browsers of an MCP session failed'));
    await session.server.close().catch(() => {});
  }

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
