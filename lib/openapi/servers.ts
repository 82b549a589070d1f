// Where this install's web process and proxy are, as the document names them: PUBLIC_WEB_URL, else
// the address the request came to; the proxy as the Connect tab shows it (lib/api/unknown-endpoint.ts).
// Forwarded headers are only present when TRUST_PROXY let them through (scripts/web-server.ts).
import { publicProxyHttpUrl } from '../api/unknown-endpoint';
import type { Servers } from './document';
import { settings } from '../config/settings';

export function documentServers(headers: { get(name: string): string | null }): Servers {
  const host = headers.get('x-forwarded-host') ?? headers.get('host');
  const proto = headers.get('x-forwarded-proto') ?? 'http';
  const web = settings().publicWebUrl ?? `${proto}://${host ?? 'localhost'}`;
  return { web: web.replace(/\/+$/, ''), proxy: publicProxyHttpUrl(host) };
}
