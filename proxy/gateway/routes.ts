// The gateway's HTTP routes and its WebSocket upgrade (docs/gateway.md): the dashboard page, POST
// /mcp, GET /v1/status, /v1/webhooks, and /v1/connect, each behind the access check (access.ts);
// everything is refused with 503 once the shutdown has begun.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { json } from '../http/respond';
import type { Relay } from '../relay/types';
import type { GatewayAccess } from './access';
import type { GatewayConfig } from './config';
import { handleGatewayConnect, refuse, type ConnectContext, type LiveSession } from './connect';
import { renderDashboard } from './dashboard';
import type { EventSender } from './events';
import type { GatewayMcp } from './mcp';
import type { ProviderProbes } from './probes';
import { gatewayStatus } from './status';
import { routeWebhooks } from './webhook-routes';
import type { WebhookStore } from './webhook-store';

export interface GatewayRoutes {
  config: GatewayConfig;
  access: GatewayAccess;
  token: string | null;
  /** The address clients use (GW_PUBLIC_URL, else the bound one), for the dashboard's snippet. */
  publicUrl: () => string;
  mcp: GatewayMcp;
  probes: ProviderProbes;
  sessions: Map<Relay, LiveSession>;
  webhooks: WebhookStore;
  events: EventSender;
  connect: ConnectContext;
  isStopping: () => boolean;
}

export async function routeRequest(req: IncomingMessage, res: ServerResponse, g: GatewayRoutes): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://gateway');
  const path = url.pathname.replace(/\/+$/, '') || '/';
  if (g.isStopping()) return json(res, 503, { error: 'the gateway is shutting down' }, { 'Retry-After': '5' });
  const dashboardPage = path === '/' && g.config.dashboard.enabled;
  const refused = g.access.refusal(req, url, !dashboardPage);
  if (refused) return json(res, refused.status, { error: refused.message }, refused.headers);
  if (dashboardPage) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: 'GET only' }, { Allow: 'GET' });
    const page = renderDashboard({
      name: g.config.gateway.name,
      needsToken: g.token !== null,
      connectUrl: `${g.publicUrl().replace(/^http/, 'ws')}/v1/connect`,
    });
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': page.csp,
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
    });
    return void res.end(req.method === 'HEAD' ? undefined : page.html);
  }
  if (path === '/mcp') return g.mcp.handle(req, res);
  if (path === '/v1/status') {
    if (req.method !== 'GET') return json(res, 405, { error: 'GET only' }, { Allow: 'GET' });
    return json(res, 200, gatewayStatus(g.connect.engine, g.probes, g.sessions.values()));
  }
  if (path === '/v1/webhooks' || path.startsWith('/v1/webhooks/')) return routeWebhooks(req, res, path, g.webhooks, g.events);
  if (path === '/v1/connect') return json(res, 426, { error: '/v1/connect is a WebSocket endpoint' }, { Upgrade: 'websocket' });
  json(res, 404, { error: `no route ${req.method} ${path}` });
}

export function routeUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, g: GatewayRoutes): void {
  // Node drops the HTTP server's error handler from an upgraded socket: a reset while a refusal
  // is written would otherwise be an uncaught error that ends the process.
  socket.on('error', () => {});
  const url = new URL(req.url ?? '/', 'http://gateway');
  if (g.isStopping()) return refuse(socket, 503, 'the gateway is shutting down');
  if (url.pathname.replace(/\/+$/, '') !== '/v1/connect') return refuse(socket, 404, `no WebSocket endpoint at ${url.pathname}`);
  const refused = g.access.refusal(req, url, true);
  if (refused) return refuse(socket, refused.status, refused.message, refused.headers);
  void handleGatewayConnect(req, socket, head, url, g.connect);
}
