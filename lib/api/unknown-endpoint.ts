// The answer for a /v1 path no control-plane route serves. The proxy's endpoints (the data API,
// connect, status) share the /v1 prefix but live on the proxy's port, so a call that reached the
// web port by mistake is told where to go instead of being left with a bare "not found".
import { ApiError } from './errors';

const PROXY_ENDPOINTS: Record<string, { call: string; what: string }> = {
  '/v1/screenshot': { call: 'POST', what: 'the data API' },
  '/v1/content': { call: 'POST', what: 'the data API' },
  '/v1/scrape': { call: 'POST', what: 'the data API' },
  '/v1/status': { call: 'GET', what: 'the router status' },
  '/v1/connect': { call: 'a WebSocket to', what: 'connect' },
};

/**
 * The proxy's address as clients should use it: PUBLIC_PROXY_URL when the operator set one (a TLS
 * terminator, another host), else the host this request came to with the proxy's port (PORT).
 */
export function publicProxyHttpUrl(hostHeader: string | null): string {
  const configured = process.env.PUBLIC_PROXY_URL;
  if (configured) return configured.replace(/^ws(s?):/, 'http$1:').replace(/\/+$/, '');
  let hostname = 'localhost';
  try {
    hostname = new URL(`http://${hostHeader ?? 'localhost'}`).hostname;
  } catch {
    // a malformed Host header: keep localhost
  }
  return `http://${hostname}:${process.env.PORT ?? 9500}`;
}

export function unknownEndpoint(method: string, path: string, hostHeader: string | null): ApiError {
  const endpoint = PROXY_ENDPOINTS[path];
  if (endpoint) {
    const base = publicProxyHttpUrl(hostHeader);
    const url = endpoint.what === 'connect' ? `${base.replace(/^http/, 'ws')}${path}` : `${base}${path}`;
    return new ApiError('not_found', `${endpoint.what} is served by the proxy, not on this port: ${endpoint.call} ${url} with a router key`);
  }
  return new ApiError('not_found', `no endpoint ${method} ${path}`);
}
