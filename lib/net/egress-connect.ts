// Connections under the egress policy: the name is resolved and checked once (egress-policy.ts)
// and the socket is opened to that very address, with the name kept for TLS (SNI, certificate)
// and the Host header. HTTP requests go through undici with a connector that does the same for
// every connection it opens, redirects included.
import net from 'node:net';
import tls from 'node:tls';
import { Agent, buildConnector, fetch as undiciFetch, type RequestInit as UndiciRequestInit, type Response as UndiciResponse } from 'undici';
import { checkUrl, resolveEgress, type EgressPolicy, type ResolvedTarget } from './egress-policy';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;

/** A `lookup` for net/tls/http/ws that answers with an address already resolved and checked. */
export function pinnedLookup(target: ResolvedTarget) {
  return (_hostname: string, options: { all?: boolean } | number | LookupCallback, callback?: LookupCallback) => {
    const cb = (typeof options === 'function' ? options : callback)!;
    if (typeof options === 'object' && options?.all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  };
}

export interface EgressSocketOptions {
  host: string;
  port: number;
  secure: boolean;
  /** ALPN for TLS (the WebSocket dial asks for http/1.1). */
  alpn?: string[];
}

/** Resolves, checks, then opens a TCP (or TLS) socket to the checked address. */
export async function connectEgress(policy: EgressPolicy, options: EgressSocketOptions): Promise<net.Socket> {
  const host = options.host.replace(/^\[|\]$/g, '');
  const target = await resolveEgress(policy, host, options.port);
  if (!options.secure) return net.connect({ host: target.address, port: options.port });
  return tls.connect({ host: target.address, port: options.port, servername: net.isIP(host) ? undefined : host, ALPNProtocols: options.alpn });
}

const agents = new WeakMap<EgressPolicy, Agent>();

/** An undici dispatcher whose every connection is resolved and checked under `policy`. */
export function egressAgent(policy: EgressPolicy): Agent {
  let agent = agents.get(policy);
  if (agent) return agent;
  const direct = buildConnector({});
  agent = new Agent({
    connect(options, callback) {
      const hostname = options.hostname.replace(/^\[|\]$/g, '');
      const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
      resolveEgress(policy, hostname, port).then(
        (target) => direct({ ...options, hostname: target.address, servername: options.servername ?? (net.isIP(hostname) ? undefined : hostname) }, callback),
        (error: Error) => callback(error, null),
      );
    },
  });
  agents.set(policy, agent);
  return agent;
}

/**
 * fetch under the egress policy. A refusal rejects with a TypeError whose `cause` is the
 * EgressRefusedError (as fetch reports any connection failure); see `refusalOf`.
 */
export function egressFetch(policy: EgressPolicy, url: string | URL, init: UndiciRequestInit = {}): Promise<UndiciResponse> {
  return undiciFetch(url, { ...init, dispatcher: egressAgent(policy) });
}

/**
 * For clients that open their own WebSocket (playwright-core's connectOverCDP): a plain ws:// or
 * http:// address gets the checked IP in place of its name, the name kept in the Host header, so
 * the client cannot resolve the name again to somewhere else. A wss:// or https:// address keeps
 * its name: TLS binds the connection to a certificate for that name, which no internal service
 * of ours presents.
 */
export async function pinnedUrl(policy: EgressPolicy, raw: string, headers: Record<string, string>): Promise<{ url: string; headers: Record<string, string> }> {
  const url = new URL(raw);
  const target = await checkUrl(policy, url);
  if (url.protocol === 'wss:' || url.protocol === 'https:' || net.isIP(url.hostname.replace(/^\[|\]$/g, ''))) return { url: raw, headers };
  const host = url.host;
  url.hostname = target.family === 6 ? `[${target.address}]` : target.address;
  const rest = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'host'));
  return { url: url.toString(), headers: { ...rest, Host: host } };
}
