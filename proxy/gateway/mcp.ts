// The gateway's POST /mcp (docs/gateway.md, "MCP"): the agent toolkit over MCP Streamable HTTP, its
// browsers opened through this gateway's own /v1/connect on loopback, so they take the same
// routing, failover and queue as any client. The request was authenticated (or Host-checked) by
// the server before it gets here. Each MCP session has its own server and browsers; a session id
// that is not live is "Session not found".
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { log } from '../../lib/log';
import { SessionSet } from '../agent/session-set';
import { toolServer } from '../mcp/tool-server';
import { SELF_HOSTED_MCP_INSTRUCTIONS } from '../mcp/instructions';
import { readBody } from '../http/body';
import { rpcError } from '../mcp/handle-mcp';

const MAX_BODY_BYTES = 1024 * 1024;
/** MCP sessions open at once on one gateway; the next initialize is refused. */
export const MAX_MCP_SESSIONS = 20;
/** An MCP session with no request for this long and no open browser is closed. */
const IDLE_MS = 30 * 60_000;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  browsers: SessionSet;
  lastRequestAt: number;
}

export class GatewayMcp {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper = setInterval(() => this.sweep(), 60_000).unref();

  /** `connectUrl`: this gateway's /v1/connect on loopback, with its token when it has one. */
  constructor(private readonly connectUrl: () => string) {}

  get size(): number {
    return this.sessions.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') return rpcError(res, 405, '/mcp takes GET, POST, DELETE', { Allow: 'GET, POST, DELETE' });
    let body: unknown;
    if (method === 'POST') {
      const raw = await readBody(req, { limit: MAX_BODY_BYTES });
      if (raw === null) return rpcError(res, 413, `the request body is larger than ${MAX_BODY_BYTES} bytes`);
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return rpcError(res, 400, 'Parse error: the body is not JSON', {}, -32700);
      }
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      if (!session) return rpcError(res, 404, 'Session not found', {}, -32001);
      session.lastRequestAt = Date.now();
      await session.transport.handleRequest(req, res, body);
      return;
    }
    const initializing = method === 'POST' && (Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body));
    if (!initializing) return rpcError(res, 400, 'Bad Request: Mcp-Session-Id header is required');
    if (this.sessions.size >= MAX_MCP_SESSIONS) return rpcError(res, 429, `this gateway already holds ${MAX_MCP_SESSIONS} MCP sessions; end one (DELETE /mcp) before opening another`);

    const id = randomUUID();
    const browsers = new SessionSet({ kind: 'connect', connect: async () => ({ url: this.connectUrl() }) });
    const session: Session = { transport: new StreamableHTTPServerTransport({ sessionIdGenerator: () => id }), server: toolServer(browsers, undefined, SELF_HOSTED_MCP_INSTRUCTIONS), browsers, lastRequestAt: Date.now() };
    this.sessions.set(id, session);
    session.transport.onclose = () => void this.close(id, 'MCP session ended');
    try {
      await session.server.connect(session.transport);
      await session.transport.handleRequest(req, res, body);
    } catch (error) {
      log.error({ err: (error as Error).message }, 'opening an MCP session failed');
      if (!res.headersSent) rpcError(res, 500, 'internal error while opening the MCP session');
    }
    if (session.transport.sessionId === undefined) await this.close(id, 'MCP initialize failed');
  }

  async close(id: string, reason: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    await session.browsers.closeAll(reason);
    await session.server.close().catch(() => {});
  }

  /** Shutdown: every MCP session and its browsers. */
  async closeAll(reason: string): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id, reason)));
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, session] of this.sessions) {
      if (session.browsers.size === 0 && now - session.lastRequestAt > IDLE_MS) void this.close(id, 'MCP session idle');
    }
  }
}
