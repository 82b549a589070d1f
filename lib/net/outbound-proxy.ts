// An operator's outbound HTTP proxy (HTTP_PROXY, HTTPS_PROXY, NO_PROXY, upper or lower case), as
// the self-hosted gateway uses it for its provider dials and webhooks (docs/gateway.md). WebSocket
// dials go through a CONNECT tunnel, with TLS to the provider inside it for wss://; the proxy's own
// user:password becomes Proxy-Authorization. The hosted service never reads these variables: its
// egress goes through its own policy (egress-policy.ts).
import net from 'node:net';
import tls from 'node:tls';

export type Env = Readonly<Record<string, string | undefined>>;

const CONNECT_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 16 * 1024;

/** The proxy for a target URL (ws/http: HTTP_PROXY; wss/https: HTTPS_PROXY), or null (none set, or NO_PROXY matches). */
export function proxyFor(target: URL, env: Env): URL | null {
  const secure = target.protocol === 'wss:' || target.protocol === 'https:';
  const raw = secure ? (env.HTTPS_PROXY ?? env.https_proxy) : (env.HTTP_PROXY ?? env.http_proxy);
  if (!raw) return null;
  if (bypassed(target, env.NO_PROXY ?? env.no_proxy ?? '')) return null;
  const proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
  if (proxy.protocol !== 'http:') throw new Error(`${secure ? 'HTTPS_PROXY' : 'HTTP_PROXY'} must be an http:// proxy address`);
  return proxy;
}

/**
 * NO_PROXY: comma- or space-separated entries; `*` matches everything; `host`, `.host` and
 * `*.host` match the host and its subdomains; `host:port` only that port; IP addresses match exactly.
 */
export function bypassed(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port || (target.protocol === 'wss:' || target.protocol === 'https:' ? '443' : '80');
  for (const entry of noProxy.split(/[\s,]+/).filter(Boolean)) {
    if (entry === '*') return true;
    const lower = entry.toLowerCase();
    // [v6]:port, a bare v6 address (more than one colon), or name:port.
    const match = lower.startsWith('[')
      ? /^\[([^\]]+)\](?::(\d+))?$/.exec(lower)
      : (lower.match(/:/g)?.length ?? 0) > 1
        ? [lower, lower]
        : /^(.*?)(?::(\d+))?$/.exec(lower);
    if (!match) continue;
    const name = match[1]!.replace(/^\*?\./, '');
    if (match[2] && match[2] !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** A socket to host:port through the proxy's CONNECT tunnel (TLS inside it when `secure`). */
export function connectThroughProxy(proxy: URL, options: { host: string; port: number; secure: boolean; alpn?: string[] }): Promise<net.Socket> {
  const host = options.host.replace(/^\[|\]$/g, '');
  const authority = net.isIPv6(host) ? `[${host}]:${options.port}` : `${host}:${options.port}`;
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: proxy.hostname.replace(/^\[|\]$/g, ''), port: Number(proxy.port || 80) });
    const timer = setTimeout(() => fail(new Error(`the proxy ${proxy.host} did not open a tunnel within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
    let buffered = Buffer.alloc(0);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.once('error', (error: NodeJS.ErrnoException) => fail(new Error(`proxy ${proxy.host}: ${error.code ?? error.message}`)));
    socket.once('connect', () => {
      const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`];
      if (proxy.username)
        lines.push(
          `Proxy-Authorization: Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`,
        );
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) {
        if (buffered.length > MAX_RESPONSE_BYTES) fail(new Error(`proxy ${proxy.host}: answer too large`));
        return;
      }
      socket.off('data', onData);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(buffered.subarray(0, end).toString('latin1'))?.[1] ?? 0);
      if (status !== 200) return fail(new Error(`proxy ${proxy.host} refused the tunnel to ${authority} (HTTP ${status || 'garbage'})`));
      clearTimeout(timer);
      socket.removeAllListeners('error');
      // Bytes after the proxy's answer already belong to the tunnel.
      const rest = buffered.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      if (!options.secure) return resolve(socket);
      resolve(tls.connect({ socket, servername: net.isIP(host) ? undefined : host, ALPNProtocols: options.alpn }));
    };
    socket.on('data', onData);
  });
}
