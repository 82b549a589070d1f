// Where an MCP session's browsers come from: this proxy's own /v1/connect on loopback, with a fresh
// agent ticket for the MCP session's credential each time (proxy/connect/agent-tickets.ts). So an
// agent's browser goes through the queue, failover, profiles, recording, traces and billing like any
// connect, and its session row is kind `agent`. What the caller leaves unset comes from the router
// agent settings (docs/agents.md, Agent sessions).
import type { AgentEndpoint, OpenOptions, ResolvedOptions } from '../agent/types';
import { AgentError } from '../agent/types';
import type { McpCredential } from '../auth/authenticate';
import type { RouterKeyIdentity } from '../auth/router-key';
import type { RouterRuntime, RouterStore } from '../config/router-store';
import { AGENT_TICKET_PARAM, type AgentTickets } from '../connect/agent-tickets';

export interface AgentEndpointInput {
  /** ws://127.0.0.1:<port> (or ws://[::1]:<port>): this process, on loopback. */
  selfUrl: () => string;
  tickets: AgentTickets;
  routers: RouterStore;
  /** The MCP session's credential, as of its latest request. */
  caller: () => { identity: RouterKeyIdentity; credential: McpCredential };
}

export function agentEndpoint(input: AgentEndpointInput): AgentEndpoint {
  const routerOf = async () => {
    const router = await input.routers.get(input.caller().identity.routerId);
    if (!router) throw new AgentError('closed', 'this router no longer exists; the chat link or key that opened this MCP session no longer works');
    return router;
  };
  return {
    kind: 'connect',
    resolve: async (options: OpenOptions) => resolveAgentOptions(options, await routerOf()),
    async connect(options: ResolvedOptions) {
      const { identity, credential } = input.caller();
      await routerOf();
      const ticket = input.tickets.issue({ identity, credentialId: identity.keyId, credential });
      const query = new URLSearchParams({ [AGENT_TICKET_PARAM]: ticket, ...agentConnectParams(options) });
      return { url: `${input.selfUrl()}/v1/connect?${query}` };
    },
  };
}

/**
 * What an agent's browser gets. An option the caller set is kept as asked (a switch that is off
 * then refuses it, with words the model can act on). An unset option takes the router's agent
 * default, but only where its switch is on: the owner's default must not make every agent browser
 * fail after the owner turned the feature off.
 */
export function resolveAgentOptions(options: OpenOptions, router: Pick<RouterRuntime, 'agent' | 'switches'>): ResolvedOptions {
  const { agent, switches } = router;
  return {
    record: options.record ?? (agent.recordDefault && switches.replayEnabled),
    trace: options.trace ?? (agent.observabilityDefault && switches.observabilityEnabled),
    profile: options.profile !== undefined ? options.profile : switches.profilesEnabled ? agent.defaultProfile : null,
    saveProfile: options.saveProfile ?? agent.saveProfileDefault,
    pageConsole: options.pageConsole ?? false,
    idleMinutes: options.idleMinutes,
  };
}

/** The /v1/connect parameters of resolved options; a profile opened without saving is read-only. */
export function agentConnectParams(options: ResolvedOptions): Record<string, string> {
  const params: Record<string, string> = {};
  if (options.record) params.session_record = 'true';
  if (options.trace) params.observability = 'true';
  if (options.profile) {
    params.profile = options.profile;
    if (!options.saveProfile) params.readOnly = '1';
  }
  return params;
}

/** The address this process reaches itself at, from the address it listens on. */
export function selfUrl(listenHost: string, port: number): string {
  return listenHost === '::1' ? `ws://[::1]:${port}` : `ws://127.0.0.1:${port}`;
}
