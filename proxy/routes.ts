// The proxy's routes (proxy/server.ts serves them): health, the data API (POST /v1/screenshot,
// /v1/content, /v1/scrape), the agents' MCP surface (/mcp), provider status (public and the web
// process's internal one), a session's live view, CDP discovery, and the WebSocket connect. While
// the proxy stops, everything but health is refused with 503 in the form its clients read.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { CONNECT_PATH, STATUS_PATH } from '../lib/data-api/routes';
import { log } from '../lib/log';
import type { RouterKeyAuth } from './auth/authenticate';
import { DISCOVERY_PATHS, handleDiscovery, TARGET_LIST_PATHS, type DiscoveryDeps } from './connect/discovery';
import { handleConnect } from './connect/handle-connect';
import { Refusal, writeRefusal } from './connect/refuse';
import type { ConnectDeps } from './connect/types';
import { endpoints, handleDataApi, type DataApiDeps } from './data-api/handle-data-api';
import { guarded, json, text } from './http/respond';
import { handleMcp, type McpDeps } from './mcp/handle-mcp';
import { handleLiveStream } from './plugins/recording/live-stream';
import type { SessionRegistry } from './sessions/registry';
import { handleInternalStatus, handleStatus, type StatusDeps } from './status';

export interface ProxyRoutes {
  isStopping: () => boolean;
  deps: ConnectDeps & StatusDeps;
  mcpDeps: McpDeps;
  discovery: DiscoveryDeps;
  dataApi: DataApiDeps;
  /** Data-API calls in progress: a shutdown lets them finish within the drain time. */
  calls: Set<Promise<void>>;
  live: { keys: RouterKeyAuth; sessions: SessionRegistry };
}

const INTERNAL_STATUS = /^\/internal\/routers\/([A-Za-z0-9_-]{1,64})\/status$/;
const LIVE_VIEW = /^\/internal\/sessions\/([A-Za-z0-9_-]{1,64})\/live$/;

const failed = (what: string, answer?: (res: ServerResponse) => void) => ({ log, what, answer });
const mcpInternalError = (res: ServerResponse) => json(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null });

export function handleRequest(req: IncomingMessage, res: ServerResponse, routes: ProxyRoutes): void {
  const url = new URL(req.url ?? '/', 'http://proxy');
  const stopping = routes.isStopping();
  if (req.method === 'GET' && (url.pathname === '/health' || url.pathname === '/v1/health')) {
    res.writeHead(stopping ? 503 : 200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ok: !stopping }));
    return;
  }
  const endpoint = endpoints[url.pathname];
  if (stopping) {
    if (endpoint) return json(res, 503, { success: false, error: 'the proxy is shutting down; retry in a moment' });
    if (url.pathname === '/mcp')
      return json(res, 503, { jsonrpc: '2.0', error: { code: -32000, message: 'the proxy is shutting down; retry in a moment' }, id: null });
    return text(res, 503, 'the proxy is shutting down');
  }
  if (url.pathname === '/mcp') {
    return guarded(res, handleMcp(req, res, url, routes.mcpDeps), failed('mcp request', mcpInternalError));
  }
  if (req.method === 'GET' && url.pathname === STATUS_PATH) return guarded(res, handleStatus(req, res, url, routes.deps), failed('status'));
  const internal = INTERNAL_STATUS.exec(url.pathname);
  if (req.method === 'GET' && internal) return guarded(res, handleInternalStatus(req, res, internal[1]!, routes.deps), failed('internal status'));
  const live = LIVE_VIEW.exec(url.pathname);
  if (req.method === 'GET' && live) return handleLiveStream(req, res, live[1]!, routes.live);
  if (endpoint) {
    if (req.method !== 'POST') return json(res, 405, { success: false, error: `${url.pathname} takes POST with a JSON body` }, { Allow: 'POST' });
    const call = handleDataApi(endpoint, req, res, url, routes.dataApi).finally(() => routes.calls.delete(call));
    routes.calls.add(call);
    return;
  }
  if (DISCOVERY_PATHS.has(url.pathname) || TARGET_LIST_PATHS.has(url.pathname))
    return guarded(res, handleDiscovery(req, res, url, routes.discovery), failed('discovery'));
  if (url.pathname === CONNECT_PATH) return text(res, 426, 'GET /v1/connect takes a WebSocket upgrade', { Upgrade: 'websocket' });
  text(res, 404, 'not found');
}

export function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, deps: ConnectDeps): void {
  // Node drops the HTTP server's error handler from an upgraded socket: a reset while a refusal
  // is written would otherwise be an uncaught error that ends the process.
  socket.on('error', () => {});
  const url = new URL(req.url ?? '/', 'http://proxy');
  if (url.pathname !== CONNECT_PATH) return writeRefusal(socket, new Refusal(404, 'not found'));
  void handleConnect(req, socket, head, url, deps);
}
