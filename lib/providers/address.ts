// A provider's address: what we show (no query string, no user credentials), where its HTTP side
// lives (the managed pool's /pool/status, a browser's /json/version), and how an http(s) browser
// base becomes the WebSocket address a CDP client connects to.
import { fetch as undiciFetch, ProxyAgent } from 'undici';
import { egressFetch } from '../net/egress-connect';
import type { EgressPolicy } from '../net/egress-policy';
import { ProviderCheckError } from './check-errors';

export type ProviderHeaders = Record<string, string>;

/** `wss://user:pw@host/path?token=x` → `wss://host/path` (spec: no query string, no credentials). */
export function displayUrl(raw: string): string {
  const url = new URL(raw);
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.toString();
}

/** `host:port` for messages: never the path or query, which may carry a token. */
export function hostOf(raw: string): string {
  const url = new URL(raw);
  return url.port ? `${url.hostname}:${url.port}` : url.hostname;
}

export const isHttpUrl = (raw: string) => /^https?:$/.test(new URL(raw).protocol);

/** The http(s) origin on the same host and port as a ws(s) or http(s) address. */
export function httpOrigin(raw: string): string {
  const url = new URL(raw);
  const protocol = url.protocol === 'wss:' || url.protocol === 'https:' ? 'https:' : 'http:';
  return `${protocol}//${url.host}`;
}

/**
 * Headers for a plain HTTP request to the provider: its own headers, plus Basic credentials taken
 * from the address when it has some (fetch refuses URLs that carry them).
 */
export function httpHeaders(raw: string, headers: ProviderHeaders): ProviderHeaders {
  const url = new URL(raw);
  const result: ProviderHeaders = { ...headers };
  const hasAuthorization = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
  if (url.username && !hasAuthorization) {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    result.Authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }
  return result;
}

/** The address without user credentials, for fetch. */
export function withoutCredentials(raw: string): URL {
  const url = new URL(raw);
  url.username = '';
  url.password = '';
  return url;
}

/**
 * A ws(s) address is used as given. An http(s) address is a browser base: its /json/version names
 * the browser's webSocketDebuggerUrl, which we take with the base's scheme, host and port (the
 * browser words it with whatever host it believes it has, often 127.0.0.1 behind a proxy).
 */
export async function resolveBrowserUrl(
  raw: string,
  headers: ProviderHeaders,
  timeoutMs: number,
  policy: EgressPolicy,
  viaProxy: URL | null = null,
): Promise<string> {
  if (!isHttpUrl(raw)) return raw;
  const base = withoutCredentials(raw);
  const versionUrl = new URL(`${base.pathname.replace(/\/+$/, '')}/json/version`, base);
  let body: unknown;
  try {
    const init = { headers: httpHeaders(raw, headers), signal: AbortSignal.timeout(timeoutMs), redirect: 'error' as const };
    // Through an operator's proxy (the self-hosted gateway) the proxy resolves the name.
    const response = viaProxy
      ? await undiciFetch(versionUrl, { ...init, dispatcher: new ProxyAgent(viaProxy.href) })
      : await egressFetch(policy, versionUrl, init);
    if (!response.ok) throw new ProviderCheckError(`${hostOf(raw)} answered /json/version with HTTP ${response.status}`);
    body = await response.json();
  } catch (error) {
    if (error instanceof ProviderCheckError) throw error;
    throw ProviderCheckError.fromNetwork(error, hostOf(raw), timeoutMs, '/json/version answer');
  }
  const debuggerUrl = (body as { webSocketDebuggerUrl?: unknown } | null)?.webSocketDebuggerUrl;
  if (typeof debuggerUrl !== 'string' || !/^wss?:\/\//.test(debuggerUrl)) {
    throw new ProviderCheckError(`${hostOf(raw)} serves /json/version without a webSocketDebuggerUrl`);
  }
  const resolved = new URL(debuggerUrl);
  const original = new URL(raw);
  resolved.protocol = original.protocol === 'https:' ? 'wss:' : 'ws:';
  resolved.host = original.host;
  resolved.username = original.username;
  resolved.password = original.password;
  if (!resolved.search && original.search) resolved.search = original.search;
  return resolved.toString();
}
