// One hosted MCP session: its own server with every tool of the agent toolkit (tool-server.ts), a
// stateful Streamable HTTP transport (serve-mcp.ts), and the SessionSet that owns its browsers.
import { randomUUID } from 'node:crypto';
import { SessionSet } from '../agent/session-set';
import type { AgentPolicy } from '../agent/policy';
import type { McpCredential } from '../auth/authenticate';
import type { RouterKeyIdentity } from '../auth/router-key';
import type { RouterStore } from '../config/router-store';
import type { AgentTickets } from '../connect/agent-tickets';
import { agentEndpoint } from './agent-endpoint';
import { toolServer } from './tool-server';
import type { McpRegistry, McpSession } from './registry';
import { mcpTransport } from './serve-mcp';

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
  const transport = mcpTransport(id, input.registry);
  // Each browser is opened under the session's identity as of its latest request (see McpRegistry.begin).
  const browsers = new SessionSet(
    agentEndpoint({
      selfUrl: input.selfUrl,
      tickets: input.tickets,
      routers: input.routers,
      caller: () => ({ identity: session.identity, credential: session.credential }),
    }),
    input.policy,
  );
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
  return session;
}
