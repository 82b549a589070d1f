// The answer for a /v1 path no control-plane route serves. The proxy's endpoints (the data API,
// connect, status) share the /v1 prefix but live on the proxy's port, so a call that reached the
// web port by mistake is told where to go instead of being left with a bare "not found".
import { CONNECT_PATH, PROXY_ROUTES, STATUS_PATH } from '../data-api/routes';
import { ApiError } from './errors';
import { settings } from '../config/settings';

/** The proxy's routes (lib/data-api/routes.ts), named for the hint. */
function proxyEndpoint(path: string): { call: string; what: string } | null {
  if (!Object.hasOwn(PROXY_ROUTES, path)) return null;
  if (path === CONNECT_PATH) return { call: 'a WebSocket to', what: 'connect' };
  if (path === STATUS_PATH) return { call: 'GET', what: 'the router status' };
  return { call: PROXY_ROUTES[path]!, what: 'the data API' };
}

/**
 * The proxy's address as clients should use it: PUBLIC_PROXY_URL when the operator set one (a TLS
 * terminator, another host), else the host this request came to with the proxy's port (PORT).
 */
export function publicProxyHttpUrl(hostHeader: string | null): string {
  const configured = settings().publicProxyUrl;
  if (configured) return configured.replace(/^ws(s?):/, 'http$1:').replace(/\/+$/, '');
  let hostname = 'localhost';
  try {
    hostname = new URL(`http://${hostHeader ?? 'localhost'}`).hostname;
  } catch {
    // a malformed Host header: keep localhost
  }
  return `http://${hostname}:${settings().port}`;
}

export function unknownEndpoint(method: string, path: string, hostHeader: string | null): ApiError {
  const endpoint = proxyEndpoint(path);
  if (endpoint) {
    const base = publicProxyHttpUrl(hostHeader);
    const url = endpoint.what === 'connect' ? `${base.replace(/^http/, 'ws')}${path}` : `${base}${path}`;
    return new ApiError('not_found', `${endpoint.what} is served by the proxy, not on this port: ${endpoint.call} ${url} with a router key`);
  }
  return new ApiError('not_found', `no endpoint ${method} ${path}`);
}
