// The addresses a user may give `gateway browse --endpoint` and `gateway mcp --cdp-endpoint` for a
// browser: a gateway (http://host:port, ws://host:port, or its /v1/connect), or a browser's own
// DevTools address (http://host:port or ws://host:port of a browser started with
// --remote-debugging-port, or its ws://host:port/devtools/browser/<id>). Both answer
// GET /json/version, so a bare address is told apart by asking it: a browser names its own
// /devtools/browser/ WebSocket; a gateway names its /v1/connect.
import { AgentError } from '../agent/types';
import { connectUrl } from './credentials';

const DEVTOOLS_TIMEOUT_MS = 10_000;

export type BrowseTarget =
  /** A gateway's /v1/connect (the token in it when given). */
  | { kind: 'connect'; url: URL }
  /** A browser's DevTools address: ws://…/devtools/browser/<id>, or http(s)://host:port asked at each open. */
  | { kind: 'browser'; devtools: URL };

/** Which of the two an endpoint is; an address of neither form is taken for a gateway (its connect then says why not). */
export async function browseTarget(endpoint: string, token?: string | null): Promise<BrowseTarget> {
  const url = connectUrl(endpoint, token);
  if (url.pathname.startsWith('/devtools/browser/')) return { kind: 'browser', devtools: url };
  const given = new URL(endpoint);
  if (given.pathname.replace(/\/+$/, '') !== '') return { kind: 'connect', url };
  const devtools = httpOrigin(given);
  const answer = await fetch(new URL('/json/version', devtools), { signal: AbortSignal.timeout(DEVTOOLS_TIMEOUT_MS) })
    .then(async (response) => (response.ok ? ((await response.json()) as { webSocketDebuggerUrl?: unknown }) : null))
    .catch(() => null);
  const ws = typeof answer?.webSocketDebuggerUrl === 'string' ? answer.webSocketDebuggerUrl : '';
  return ws.includes('/devtools/browser/') ? { kind: 'browser', devtools } : { kind: 'connect', url };
}

/** The http(s) form of an address's origin (ws://host:port → http://host:port). */
export function httpOrigin(url: URL): URL {
  const origin = new URL(url.origin.replace(/^ws/, 'http'));
  return origin;
}

/** The browser's WebSocket address: as given, or from GET /json/version of its DevTools HTTP address. */
export async function browserWebSocket(devtools: URL, tellUser: string): Promise<string> {
  if (devtools.protocol === 'ws:' || devtools.protocol === 'wss:') return devtools.href;
  const version = new URL('/json/version', devtools);
  const unreachable = (why: string) => new AgentError('browser', `no browser answers at ${version.href} (${why}); ${tellUser}`);
  let response: Response;
  try {
    response = await fetch(version, { signal: AbortSignal.timeout(DEVTOOLS_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    throw unreachable(cause?.code ?? (error as Error).message);
  }
  const body = (await response.json().catch(() => null)) as { webSocketDebuggerUrl?: unknown } | null;
  if (!response.ok || typeof body?.webSocketDebuggerUrl !== 'string')
    throw unreachable(response.ok ? 'its answer has no webSocketDebuggerUrl' : `HTTP ${response.status}`);
  return body.webSocketDebuggerUrl;
}
