// The gateway's POST /mcp (docs/gateway.md, "MCP"): the agent toolkit over MCP Streamable HTTP, its
// browsers opened through this gateway's own /v1/connect on loopback, so they take the same
// routing, failover and queue as any client. The request was authenticated (or Host-checked) by
// the server before it gets here, so the gateway is the one owner of its sessions. Each MCP session
// has its own server and browsers; a session id that is not live is "Session not found". The flow
// and the session registry are the hosted proxy's (proxy/mcp/).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SessionSet } from '../agent/session-set';
import { SELF_HOSTED_MCP_INSTRUCTIONS } from '../mcp/instructions';
import { McpSessions, type McpSessionBase } from '../mcp/registry';
import { mcpTransport, readMcpBody, refusedMethod, serveMcp } from '../mcp/serve-mcp';
import { toolServer } from '../mcp/tool-server';

/** MCP sessions open at once on one gateway; the next initialize is refused. */
export const MAX_MCP_SESSIONS = 20;
const OWNER = 'gateway';

export class GatewayMcp {
  private readonly sessions = new McpSessions<McpSessionBase>({ maxPerCredential: MAX_MCP_SESSIONS });

  /** `connectUrl`: this gateway's /v1/connect on loopback, with its token when it has one. */
  constructor(private readonly connectUrl: () => string) {}

  get size(): number {
    return this.sessions.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (refusedMethod(req, res)) return;
    const read = await readMcpBody(req, res);
    if (!read) return;
    await serveMcp(req, res, read.body, {
      sessions: this.sessions,
      ownerId: OWNER,
      fullMessage: `this gateway already holds ${MAX_MCP_SESSIONS} MCP sessions; end one (DELETE /mcp) before opening another`,
      open: () => this.open(),
    });
  }

  /** Shutdown: every MCP session and its browsers. */
  closeAll(reason: string): Promise<void> {
    return this.sessions.closeAll(reason);
  }

  private open(): McpSessionBase {
    const id = randomUUID();
    const browsers = new SessionSet({ kind: 'connect', connect: async () => ({ url: this.connectUrl() }) });
    const server = toolServer(browsers, undefined, SELF_HOSTED_MCP_INSTRUCTIONS);
    return { id, credentialId: OWNER, transport: mcpTransport(id, this.sessions), server, browsers, lastRequestAt: Date.now(), inFlight: 0 };
  }
}
