// Whether an endpoint answers, and takes the token. A gateway or the hosted service is asked for
// GET /v1/status with the token: opening /v1/connect instead would start (and bill) a browser
// session just to look. A browser's own /devtools/ address has no status route: its WebSocket is
// opened and closed at once. Failures are worded for the person at the terminal; the token never
// appears in them.
import WebSocket from 'ws';
import { connectUrl } from './credentials';

export const PROBE_TIMEOUT_MS = 10_000;

export type Probe = { ok: true; latencyMs: number } | { ok: false; reason: string };

const STATUS_REASONS: Record<number, string> = {
  401: 'the endpoint refused the token (401): check --token or GW_TOKEN',
  403: 'the endpoint refused the connection (403)',
  404: "no gateway at that address (404): give the gateway base URL, a /v1/connect URL, or a browser's /devtools/ URL",
  429: 'the endpoint is busy or rate-limiting (429); try again shortly',
  503: 'the endpoint has no browser available right now (503)',
};

function describeError(error: NodeJS.ErrnoException, where: string): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${where}: is the gateway running there?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host not found: ${where}`;
    case 'ECONNRESET':
      return `${where} closed the connection during the handshake`;
    default:
      return `could not connect to ${where}: ${error.message}`;
  }
}

export async function probeEndpoint(endpoint: string, token: string | null | undefined, timeoutMs = PROBE_TIMEOUT_MS): Promise<Probe> {
  const url = connectUrl(endpoint, token);
  if (url.pathname.includes('/devtools/')) return probeWebSocket(url, timeoutMs);
  return probeStatus(url, token, timeoutMs);
}

/** GET /v1/status beside the connect path, with the token as a bearer header. */
async function probeStatus(connect: URL, token: string | null | undefined, timeoutMs: number): Promise<Probe> {
  const status = new URL(connect);
  status.protocol = connect.protocol === 'wss:' ? 'https:' : 'http:';
  status.pathname = connect.pathname.replace(/\/v1\/connect\/?$/, '/v1/status');
  status.search = '';
  const where = status.host;
  const started = performance.now();
  try {
    const res = await fetch(status, { headers: token ? { Authorization: `Bearer ${token}` } : {}, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    if (res.ok) return { ok: true, latencyMs: Math.round(performance.now() - started) };
    return { ok: false, reason: STATUS_REASONS[res.status] ?? `the endpoint answered HTTP ${res.status} to GET /v1/status` };
  } catch (error) {
    const cause = (error as Error & { cause?: NodeJS.ErrnoException }).cause;
    if ((error as Error).name === 'TimeoutError')
      return { ok: false, reason: `no answer from ${where} within ${timeoutMs >= 1000 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`}` };
    return { ok: false, reason: describeError(cause ?? (error as NodeJS.ErrnoException), where) };
  }
}

/** A browser's own address: its WebSocket opens (the 101) and is closed at once. */
function probeWebSocket(url: URL, timeoutMs: number): Promise<Probe> {
  const where = url.host;
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { perMessageDeflate: false, followRedirects: false });
    let settled = false;
    const settle = (result: Probe) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => {
      settle({ ok: false, reason: `no answer from ${where} within ${timeoutMs >= 1000 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`}` });
      socket.terminate();
    }, timeoutMs);
    socket.on('open', () => {
      settle({ ok: true, latencyMs: Math.round(performance.now() - started) });
      socket.close(1000);
      // A peer that never answers the close frame must not keep the command alive.
      setTimeout(() => socket.terminate(), 1000).unref();
    });
    socket.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      settle({ ok: false, reason: STATUS_REASONS[status] ?? `the endpoint answered HTTP ${status} instead of opening a WebSocket` });
      response.resume();
      socket.terminate();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => settle({ ok: false, reason: describeError(error, where) }));
  });
}
