// The proxy's HTTP server: the connect endpoint (WebSocket upgrade), provider status, health;
// and the webhook delivery worker, which starts and stops with it.
import http from 'node:http';
import { hostname } from 'node:os';
import { listen, type Listener } from '../lib/db/listen';
import { log } from '../lib/log';
import { ROUTER_CHANNEL } from '../lib/routers/notify';
import { SESSION_CLOSE_CHANNEL } from '../lib/sessions/notify';
import { FailureThrottle } from './auth/failure-throttle';
import { RouterStore } from './config/router-store';
import { handleConnect } from './connect/handle-connect';
import { Refusal, writeRefusal } from './connect/refuse';
import { HealthChecker } from './health/health-checker';
import { CONTROL_PLANE_CLOSE } from './relay/types';
import { SessionRegistry } from './sessions/registry';
import { settleOrphanedSessions } from './sessions/session-store';
import { handleStatus, text } from './status';
import { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './webhooks/delivery-worker';

export interface ProxyOptions {
  port: number;
  host: string;
  proxyInstanceId?: string;
  shutdownDrainMs?: number;
  lane?: 'fast' | 'pipeline';
  /** The webhook delivery worker's settings; false runs none (another process delivers). */
  webhooks?: WebhookWorkerOptions | false;
}

export interface ProxyServer {
  server: http.Server;
  routers: RouterStore;
  sessions: SessionRegistry;
  webhooks: WebhookWorker | null;
  stop(): Promise<void>;
}

export async function startProxy(options: ProxyOptions): Promise<ProxyServer> {
  const proxyInstanceId = options.proxyInstanceId ?? `${hostname()}:${options.port}`;
  const settled = await settleOrphanedSessions(proxyInstanceId);
  if (settled > 0) log.warn({ settled }, 'settled sessions left active by a previous run of this proxy');

  const routers = new RouterStore();
  const sessions = new SessionRegistry();
  const throttle = new FailureThrottle();
  const health = new HealthChecker();
  routers.onRuntime((runtime) => health.watch(runtime));
  let stopping = false;

  const listener: Listener = listen(
    [ROUTER_CHANNEL, SESSION_CLOSE_CHANNEL],
    (channel, payload) => {
      if (channel === ROUTER_CHANNEL) void routers.refresh(payload).catch((err: Error) => log.error({ err: err.message }, 'router refresh failed'));
      if (channel === SESSION_CLOSE_CHANNEL) sessions.close(payload, 4000, 'closed by the workspace', { state: 'closed', reason: CONTROL_PLANE_CLOSE });
    },
    () => void routers.refreshAll(),
  );

  const deps = { lane: options.lane ?? 'fast', routers, sessions, throttle, proxyInstanceId, isStopping: () => stopping };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    if (req.method === 'GET' && (url.pathname === '/health' || url.pathname === '/v1/health')) {
      res.writeHead(stopping ? 503 : 200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ok: !stopping }));
      return;
    }
    if (stopping) return text(res, 503, 'the proxy is shutting down');
    if (req.method === 'GET' && url.pathname === '/v1/status') {
      void handleStatus(req, res, url, deps).catch((err: Error) => {
        log.error({ err: err.message }, 'status failed');
        if (!res.headersSent) text(res, 500, 'internal error');
      });
      return;
    }
    if (url.pathname === '/v1/connect') return text(res, 426, 'GET /v1/connect takes a WebSocket upgrade', { Upgrade: 'websocket' });
    text(res, 404, 'not found');
  });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    if (url.pathname !== '/v1/connect') return writeRefusal(socket, new Refusal(404, 'not found'));
    void handleConnect(req, socket, head, url, deps);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  const webhooks = options.webhooks === false ? null : startWebhookWorker(options.webhooks);

  return {
    server,
    routers,
    sessions,
    webhooks,
    async stop() {
      stopping = true;
      await sessions.drain(options.shutdownDrainMs ?? 30_000);
      // After the drain, whose session ends enqueue events; what is still pending is left to the
      // next worker (rows stay pending, claims expire).
      await webhooks?.stop();
      health.stop();
      await listener.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
