// The proxy process: its HTTP server (the routes are routes.ts: connect, discovery, status, the
// data API, MCP, health), what it keeps (routers, sessions, provider connections, its cluster
// membership and the database notifications it follows), and the workers that start and stop with
// it (webhook deliveries, jobs). The public /v1 routes are the table of lib/data-api/routes.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { settings } from '../lib/config/settings';
import { listen, type Listener } from '../lib/db/listen';
import { log } from '../lib/log';
import { ROUTER_CHANNEL } from '../lib/routers/notify';
import { ACCESS_CHANNEL, SESSION_CLOSE_CHANNEL } from '../lib/sessions/notify';
import { RouterKeyAuth } from './auth/authenticate';
import { RouterStore } from './config/router-store';
import { AgentTickets } from './connect/agent-tickets';
import { selfUrl } from './mcp/agent-endpoint';
import type { AgentPolicy } from './agent/policy';
import { McpRegistry } from './mcp/registry';
import type { RecordingOptions } from './plugins/recording';
import type { TraceOptions } from './plugins/trace';
import { blobs } from '../lib/blobs';
import { Cluster } from './cluster/cluster';
import { PROVIDER_COOLDOWN_CHANNEL, PROVIDER_FREED_CHANNEL, resetSharedState, runningCooldowns } from './cluster/leases';
import { BrowserConnections } from './data-api/browser-connections';
import { HealthChecker } from './health/health-checker';
import { CONTROL_PLANE_CLOSE } from './relay/types';
import { SessionRegistry } from './sessions/registry';
import { applyAccessEvent, recheckLiveSessions } from './sessions/revocations';
import { LiveStatsFlusher } from './sessions/live-stats';
import { CLOSE_TEXTS } from './sessions/close-reasons';
import { handleRequest, handleUpgrade, type ProxyRoutes } from './routes';
import { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './webhooks/delivery-worker';
import { startJobWorker, type JobWorker, type JobWorkerOptions } from '../lib/jobs';

export interface ProxyOptions {
  port: number;
  host: string;
  proxyInstanceId?: string;
  /** How long a stop lets sessions and data-API calls finish; default SHUTDOWN_DRAIN_MS. */
  shutdownDrainMs?: number;
  lane?: 'fast' | 'pipeline';
  /** The webhook delivery worker's settings; false runs none (another process delivers). */
  webhooks?: WebhookWorkerOptions | false;
  /** The job worker's settings (recording encodes, retention); false runs none (another process does). */
  jobs?: JobWorkerOptions | false;
  /** How long the data API keeps an unused provider connection open; default DATA_API_IDLE_CONNECTION_MS. */
  dataApiIdleConnectionMs?: number;
  /** TRUST_PROXY=1: count failed key attempts per right-most X-Forwarded-For entry, not per socket. */
  trustProxy?: boolean;
  /** The address clients reach the proxy at (CDP discovery's webSocketDebuggerUrl); default PUBLIC_PROXY_URL, else each request's Host. */
  publicUrl?: string;
  /** Recorded sessions' settings (the byte cap; tests use a small one). */
  recording?: RecordingOptions;
  /** Traced sessions' settings (the event cap; tests use a small one). */
  traces?: TraceOptions;
  /** Where the web processes reach this proxy (PROXY_INTERNAL_URL; default http://<host>:<port>). */
  internalUrl?: string;
  /** How long this proxy's provider leases outlive its last heartbeat; default LEASE_TTL_MS (tests use a short one). */
  leaseTtlMs?: number;
  /** Agent browsers' limits (docs/agents.md, Sessions; tests use a short idle close). */
  agents?: Partial<AgentPolicy>;
}

export interface ProxyServer {
  server: http.Server;
  routers: RouterStore;
  sessions: SessionRegistry;
  /** The live MCP sessions (/mcp) and the tickets their browsers connect with. */
  mcp: McpRegistry;
  agentTickets: AgentTickets;
  webhooks: WebhookWorker | null;
  jobs: JobWorker | null;
  stop(): Promise<void>;
}

export async function startProxy(options: ProxyOptions): Promise<ProxyServer> {
  // Several proxies may share the database (docs/deployment.md): this run's row, its leases and
  // heartbeat; what a previous run under the same name left is settled first.
  const cluster = await Cluster.join({
    name: options.proxyInstanceId ?? `${hostname()}:${options.port}`,
    internalUrl: options.internalUrl ?? `http://${reachableHost(options.host)}:${options.port}`,
    ttlMs: options.leaseTtlMs,
    recordingStore: options.recording?.store ?? blobs(),
    traceStore: options.traces?.store ?? blobs(),
  });

  const kept = keepState(options);
  const { routers, sessions, mcp, agentTickets } = kept;
  let stopping = false;
  /** Data-API calls in progress: a shutdown lets them finish within the drain time. */
  const calls = new Set<Promise<void>>();

  const listener = followNotifications(routers, sessions, mcp);

  const server = http.createServer();
  const routes = proxyRoutes(options, kept, { cluster, server, calls, isStopping: () => stopping });
  server.on('request', (req, res) => handleRequest(req, res, routes));
  server.on('upgrade', (req, socket, head) => handleUpgrade(req, socket, head, routes.deps));
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  const webhooks = options.webhooks === false ? null : startWebhookWorker(options.webhooks);
  const jobs = options.jobs === false ? null : await startJobWorker(options.jobs);

  return {
    server,
    routers,
    sessions,
    mcp,
    agentTickets,
    webhooks,
    jobs,
    async stop() {
      stopping = true;
      await shutdown({ ...kept, drainMs: options.shutdownDrainMs ?? settings().shutdownDrainMs, calls, webhooks, jobs, cluster, listener, server });
    },
  };
}

/** What the proxy keeps while it runs: routers, sessions and their live stats, keys, provider health, the data API's connections, the agents' tickets and MCP sessions. */
function keepState(options: ProxyOptions) {
  const routers = new RouterStore(undefined, { cooldowns: runningCooldowns, reset: resetSharedState });
  const sessions = new SessionRegistry();
  const liveStats = new LiveStatsFlusher(sessions, settings().sessionStatsFlushMs);
  const keys = new RouterKeyAuth({ trustProxy: options.trustProxy ?? false });
  const health = new HealthChecker();
  const connections = new BrowserConnections(options.dataApiIdleConnectionMs ?? settings().dataApiIdleConnectionMs);
  const agentTickets = new AgentTickets();
  const mcp = new McpRegistry();
  health.follow(routers);
  routers.onRuntime((runtime) => connections.reconcile(runtime));
  routers.onForget((routerId) => connections.reconcile({ id: routerId, providers: [] }));
  return { routers, sessions, liveStats, keys, health, connections, agentTickets, mcp };
}

/** What each route is given (routes.ts): the connect path's stores and settings, MCP's, CDP discovery's, the data API's. */
function proxyRoutes(
  options: ProxyOptions,
  { routers, sessions, keys, connections, agentTickets, mcp }: ReturnType<typeof keepState>,
  { cluster, server, calls, isStopping }: { cluster: Cluster; server: http.Server; calls: Set<Promise<void>>; isStopping: () => boolean },
): ProxyRoutes {
  const deps = {
    lane: options.lane ?? 'fast',
    routers,
    sessions,
    keys,
    proxyInstanceId: cluster.runId,
    cluster,
    isStopping,
    recording: options.recording,
    traces: options.traces,
    agentTickets,
  };
  // The agents' browsers connect back to this process on loopback (docs/agents.md, Agent sessions).
  const mcpDeps = {
    keys,
    routers,
    registry: mcp,
    tickets: agentTickets,
    selfUrl: () => selfUrl(options.host, (server.address() as AddressInfo).port),
    policy: options.agents,
  };
  const discovery = { keys, trustProxy: options.trustProxy ?? false, publicUrl: publicProxyUrl(options.publicUrl ?? settings().publicProxyUrl ?? undefined) };
  return {
    isStopping,
    deps,
    mcpDeps,
    discovery,
    dataApi: { routers, keys, connections, cluster },
    calls,
    live: { keys, sessions },
  };
}

interface Running {
  drainMs: number;
  mcp: McpRegistry;
  sessions: SessionRegistry;
  calls: Set<Promise<void>>;
  webhooks: WebhookWorker | null;
  jobs: JobWorker | null;
  liveStats: LiveStatsFlusher;
  health: HealthChecker;
  connections: BrowserConnections;
  cluster: Cluster;
  listener: Listener;
  server: http.Server;
}

/** The stop, in order: agents' sessions, the drain of sessions and data-API calls, the workers, then the rest. */
async function shutdown({ drainMs, mcp, sessions, calls, webhooks, jobs, liveStats, health, connections, cluster, listener, server }: Running): Promise<void> {
  // Agents' browsers end as their MCP sessions close, before the drain waits for what is left.
  await mcp.closeAll('proxy shutting down');
  await Promise.all([sessions.drain(drainMs), Promise.race([Promise.allSettled([...calls]), new Promise((r) => setTimeout(r, drainMs).unref())])]);
  // After the drain, whose session ends enqueue events; what is still pending is left to the
  // next worker (rows stay pending, claims expire).
  await webhooks?.stop();
  // Encodes in progress are handed back for another worker to retry at once.
  await jobs?.stop();
  liveStats.stop();
  health.stop();
  await connections.closeAll();
  await cluster.stop();
  await listener.stop();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * What other processes announce (docs/architecture.md): router changes, a freed or cooling
 * provider, a session closed from the control plane, revoked access. On every (re)connect of the
 * listener the state is read again, since announcements may have been missed meanwhile.
 */
function followNotifications(routers: RouterStore, sessions: SessionRegistry, mcp: McpRegistry): Listener {
  return listen(
    [ROUTER_CHANNEL, SESSION_CLOSE_CHANNEL, ACCESS_CHANNEL, PROVIDER_FREED_CHANNEL, PROVIDER_COOLDOWN_CHANNEL],
    (channel, payload) => {
      if (channel === PROVIDER_FREED_CHANNEL) routers.capacityFreed(payload);
      if (channel === PROVIDER_COOLDOWN_CHANNEL) {
        const [providerId, ms] = payload.split(' ');
        if (providerId && Number(ms) > 0) routers.enterCooldown(providerId, Number(ms));
      }
      if (channel === ROUTER_CHANNEL) void routers.refresh(payload).catch((err: Error) => log.error({ err: err.message }, 'router refresh failed'));
      if (channel === SESSION_CLOSE_CHANNEL) sessions.close(payload, 4000, CLOSE_TEXTS.controlPlane, { state: 'closed', reason: CONTROL_PLANE_CLOSE });
      if (channel === ACCESS_CHANNEL) applyAccessEvent(sessions, payload, [mcp]);
    },
    () => {
      // Refreshing reloads settings; slots freed meanwhile are found by each engine's next look.
      void routers.refreshAll().then(() => routers.recheckAll());
      void recheckLiveSessions(sessions, [mcp]).catch((err: Error) => log.error({ err: err.message }, 'access recheck failed'));
    },
  );
}

/** The bound address as others reach it: the machine's name for a wildcard bind. */
function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return hostname();
  return host.includes(':') ? `[${host}]` : host;
}

/** PUBLIC_PROXY_URL, checked once at start rather than on every discovery request. */
function publicProxyUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^(https?|wss?):\/\/[^/?#\s]+/.test(value) || !URL.canParse(value))
    throw new Error(`PUBLIC_PROXY_URL must be an http(s):// or ws(s):// address (got "${value}")`);
  return value;
}
