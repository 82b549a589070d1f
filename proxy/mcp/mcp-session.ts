// One MCP session: its own McpServer (the SDK refuses to connect one server to a second transport,
// and a server per session keeps one client's state out of another's), a stateful Streamable HTTP
// transport whose id we choose up front (so the session is counted before its first request is
// answered), every tool of the agent toolkit, and the SessionSet that owns its browsers.
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SessionSet } from '../agent/session-set';
import type { AgentPolicy } from '../agent/policy';
import { agentTools, runTool, type ToolContext } from '../agent/tools';
import type { McpCredential } from '../auth/authenticate';
import type { RouterKeyIdentity } from '../auth/router-key';
import type { RouterStore } from '../config/router-store';
import type { AgentTickets } from '../connect/agent-tickets';
import { agentEndpoint } from './agent-endpoint';
import { MCP_INSTRUCTIONS, MCP_SERVER_NAME } from './instructions';
import type { McpRegistry, McpSession } from './registry';

export interface OpenMcpSessionInput {
  identity: RouterKeyIdentity;
  credential: McpCredential;
  registry: McpRegistry;
  routers: RouterStore;
  tickets: AgentTickets;
  selfUrl: () => string;
  /** The toolkit's limits (tests shorten the idle close). */
  policy?: Partial<AgentPolicy>;
  now?: () => number;
}

export function openMcpSession(input: OpenMcpSessionInput): McpSession {
  const id = randomUUID();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
  const server = new McpServer({ name: MCP_SERVER_NAME, version: process.env.npm_package_version ?? '0.1.0' }, { instructions: MCP_INSTRUCTIONS });
  // Each browser is opened under the session's identity as of its latest request (see McpRegistry.begin).
  const browsers = new SessionSet(agentEndpoint({ selfUrl: input.selfUrl, tickets: input.tickets, routers: input.routers, caller: () => ({ identity: session.identity, credential: session.credential }) }), input.policy);
  const session: McpSession = {
    id,
    credentialId: input.identity.keyId,
    credential: input.credential,
    workspaceId: input.identity.workspaceId,
    identity: input.identity,
    transport,
    server,
    browsers,
    lastRequestAt: (input.now ?? Date.now)(),
    inFlight: 0,
  };
  const ctx: ToolContext = { sessions: browsers };
  for (const tool of agentTools()) {
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations }, (args) => runTool(tool, ctx, args));
  }
  // The client ended it (DELETE /mcp) or the transport closed for another reason: its browsers go too.
  transport.onclose = () => void input.registry.close(id, 'MCP session ended');
  return session;
}
