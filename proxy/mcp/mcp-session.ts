// One MCP session: its own server with every tool of the agent toolkit (tool-server.ts), a stateful
// Streamable HTTP transport whose id we choose up front (so the session is counted before its first
// request is answered), and the SessionSet that owns its browsers.
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SessionSet } from '../agent/session-set';
import type { AgentPolicy } from '../agent/policy';
import type { McpCredential } from '../auth/authenticate';
import type { RouterKeyIdentity } from '../auth/router-key';
import type { RouterStore } from '../config/router-store';
import type { AgentTickets } from '../connect/agent-tickets';
import { agentEndpoint } from './agent-endpoint';
import { toolServer } from './tool-server';
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
  // Each browser is opened under the session's identity as of its latest request (see McpRegistry.begin).
  const browsers = new SessionSet(agentEndpoint({ selfUrl: input.selfUrl, tickets: input.tickets, routers: input.routers, caller: () => ({ identity: session.identity, credential: session.credential }) }), input.policy);
  const server = toolServer(browsers);
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
  // The client ended it (DELETE /mcp) or the transport closed for another reason: its browsers go too.
  transport.onclose = () => void input.registry.close(id, 'MCP session ended');
  return session;
}
