// GET /json/version (and /json/version/, and both under /v1/connect): CDP discovery, so a client
// given the proxy's http:// address finds the WebSocket to open, as it would on a browser's
// debugging port. /json and /json/list answer an empty list, with the same key check. Playwright's
// connectOverCDP('http://proxy/?token=…') reads /json/version/ with the same query (and headers)
// and then opens webSocketDebuggerUrl exactly as given. That URL points back at this proxy's
// /v1/connect with the request's other parameters (provider=, …) and, instead of the router key,
// a single-use connect ticket (proxy/auth/connect-ticket.ts): no response of this endpoint, and no
// refusal, ever contains the key. The key is checked like a connect's (RouterKeyAuth.check: the
// same 401, the same throttle and 429).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouterKeyAuth } from '../auth/authenticate';
import { issueConnectTicket, TICKET_PARAM } from '../auth/connect-ticket';
import { json, text } from '../http/respond';

// At the root, and under /v1/connect: Playwright's connectOverCDP('http://…/v1/connect?token=…')
// reads the discovery document under the URL it is given.
const withSlash = (paths: string[]) => paths.flatMap((p) => [p, `${p}/`]);
const underConnect = (paths: string[]) => [...paths, ...paths.map((p) => `/v1/connect${p}`)];
export const DISCOVERY_PATHS: ReadonlySet<string> = new Set(withSlash(underConnect(['/json/version'])));
/** A browser's target lists: none here before a connect (the browser is chosen then). */
export const TARGET_LIST_PATHS: ReadonlySet<string> = new Set(withSlash(underConnect(['/json', '/json/list'])));

/** The CDP protocol version Chromium reports; the provider's browser speaks it too. */
const PROTOCOL_VERSION = '1.3';

export interface DiscoveryDeps {
  keys: RouterKeyAuth;
  /** PUBLIC_PROXY_URL: the address clients reach this proxy at, when it is not the Host they used. */
  publicUrl?: string;
  /** TRUST_PROXY=1: X-Forwarded-Proto and X-Forwarded-Host describe the client's address. */
  trustProxy: boolean;
}

export async function handleDiscovery(req: IncomingMessage, res: ServerResponse, url: URL, deps: DiscoveryDeps): Promise<void> {
  if (req.method !== 'GET') return text(res, 405, `${url.pathname} takes GET`, { Allow: 'GET' });
  const auth = await deps.keys.check(req, url);
  if (!auth.ok) return text(res, auth.status, auth.message, auth.headers);
  if (auth.identity.suspended) return text(res, 402, 'the workspace is suspended');
  if (TARGET_LIST_PATHS.has(url.pathname)) return json(res, 200, []);
  const base = connectBase(req, deps);
  if (!base) return text(res, 400, 'the Host header is missing or malformed; set PUBLIC_PROXY_URL on the proxy or send a Host header');

  const target = new URL(`${base.pathname.replace(/\/+$/, '')}/v1/connect`, base);
  for (const [name, value] of url.searchParams) if (name !== 'token' && name !== TICKET_PARAM) target.searchParams.append(name, value);
  target.searchParams.set(TICKET_PARAM, await issueConnectTicket(auth.identity.keyId));
  json(res, 200, {
    Browser: 'browser-router (the browser is chosen at connect)',
    'Protocol-Version': PROTOCOL_VERSION,
    webSocketDebuggerUrl: target.toString(),
  });
}

/** ws(s)://host[/prefix] clients reach the proxy at: PUBLIC_PROXY_URL, else the request's own. */
export function connectBase(req: Pick<IncomingMessage, 'headers'>, deps: Pick<DiscoveryDeps, 'publicUrl' | 'trustProxy'>): URL | null {
  if (deps.publicUrl) {
    const configured = new URL(deps.publicUrl);
    configured.protocol = configured.protocol === 'https:' || configured.protocol === 'wss:' ? 'wss:' : 'ws:';
    configured.search = '';
    configured.hash = '';
    return configured;
  }
  const forwarded = (name: string) => {
    const value = req.headers[name];
    return deps.trustProxy ? (Array.isArray(value) ? value.join(',') : value)?.split(',').at(-1)?.trim() || undefined : undefined;
  };
  const host = forwarded('x-forwarded-host') ?? req.headers.host;
  const secure = forwarded('x-forwarded-proto') === 'https';
  // A host with a port and nothing else: no user info, path or query smuggled in.
  if (!host || !/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(host)) return null;
  return new URL(`${secure ? 'wss' : 'ws'}://${host}`);
}
