// What the connect path is given (ConnectDeps: the proxy's stores and settings) and whom a connect
// runs for (Caller), shared by handle-connect.ts and start-session.ts.
import type { RouterKeyAuth } from '../auth/authenticate';
import type { RouterKeyIdentity } from '../auth/router-key';
import type { Cluster } from '../cluster/cluster';
import type { RouterStore } from '../config/router-store';
import type { RecordingOptions } from '../plugins/recording';
import type { TraceOptions } from '../plugins/trace';
import type { SessionRegistry } from '../sessions/registry';
import type { AgentCredential, AgentTickets } from './agent-tickets';

export interface ConnectDeps {
  /** `pipeline` relays every session message by message (benchmarks, tests); features will choose it per session. */
  lane: 'fast' | 'pipeline';
  routers: RouterStore;
  sessions: SessionRegistry;
  /** The router-key check shared with /v1/status and the data API (failure throttle included). */
  keys: RouterKeyAuth;
  proxyInstanceId: string;
  /** Provider slots shared with the other proxies on the database; absent, this proxy's count is the whole truth. */
  cluster?: Cluster;
  isStopping(): boolean;
  /** Settings of recorded sessions (the byte cap). */
  recording?: RecordingOptions;
  /** Settings of traced sessions (the event cap). */
  traces?: TraceOptions;
  /** Tickets the MCP surface issues for its agents' browsers; without it `agent_ticket=` is refused. */
  agentTickets?: AgentTickets;
}

/** Who a connect runs for: the identity it is billed and gated by, and what its session row and registry entry say. */
export interface Caller {
  identity: RouterKeyIdentity;
  kind: 'route' | 'agent';
  /** The credential whose revocation closes the session (a router key's id, or a chat link's). */
  keyId: string;
  credential: AgentCredential;
}
