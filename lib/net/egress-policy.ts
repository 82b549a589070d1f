// The one egress policy for every connection the service makes on a tenant's behalf: provider
// dials, tests and probes, webhook deliveries, data-API pages, and pages inside pool browsers
// (docs/security.md). PRIVATE_NETWORK=deny (the default) refuses every address that is not public;
// `allow` permits private ones for a single-tenant install, except, always, link-local and
// metadata addresses and the product's own ports. A name is resolved once, every address it
// resolves to is checked, and the connection is made to the checked address (no DNS rebinding).
import dns from 'node:dns';
import net from 'node:net';
import { settings, type Settings } from '../config/settings';
import { classifyIp, ipLiteral, isMetadataAddress, type AddressClass } from './addresses';

export type PrivateNetwork = 'deny' | 'allow';

export interface EgressPolicy {
  privateNetwork: PrivateNetwork;
  /** Ports of the product's own services, refused on every address that is not public. */
  internalPorts: Set<number>;
}

/** `reason` reads as a sentence about the target ("localhost resolves to 127.0.0.1, a loopback address, …"). */
export class EgressRefusedError extends Error {
  constructor(
    readonly target: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

type PortSettings = Pick<Settings, 'port' | 'webPort' | 'poolPort' | 'embeddedPgPort' | 'databaseUrl' | 'localPoolUrl' | 'internalPorts'>;

/** The product's own ports, as every process of it knows them from its settings. */
export function internalPortsOf(s: PortSettings): Set<number> {
  const ports = new Set<number>([s.port, s.webPort, s.poolPort, s.embeddedPgPort, ...s.internalPorts].filter((n) => n > 0));
  for (const raw of [s.databaseUrl, s.localPoolUrl]) {
    if (!raw) continue;
    const url = new URL(raw);
    const port = Number(url.port || (url.protocol.startsWith('postgres') ? 5432 : 0));
    if (port > 0) ports.add(port);
  }
  return ports;
}

let fromSettings: { from: Settings; policy: EgressPolicy } | undefined;

/** This process's policy (from its settings, lib/config/settings.ts). */
export function egressPolicy(): EgressPolicy {
  const current = settings();
  if (fromSettings?.from !== current)
    fromSettings = { from: current, policy: { privateNetwork: current.privateNetwork, internalPorts: internalPortsOf(current) } };
  return fromSettings.policy;
}

const CLASS_WORDS: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'a loopback address',
  private: 'a private-network address',
  cgnat: 'a carrier-grade NAT address',
  'link-local': 'a link-local address (where cloud metadata services answer)',
  unspecified: 'an unspecified address (it reaches this host)',
  reserved: 'a reserved address',
};
const ALWAYS = 'refused whatever PRIVATE_NETWORK says';
const DENIED = 'refused under PRIVATE_NETWORK=deny (a single-tenant install may set PRIVATE_NETWORK=allow)';

interface Verdict {
  /** `127.0.0.1`, or `127.0.0.1:5432` when the port is the reason. */
  subject: string;
  /** What it is and the rule that refuses it: `a loopback address, refused under …`. */
  why: string;
}

function verdict(policy: EgressPolicy, ip: string, port: number): Verdict | null {
  const kind = classifyIp(ip);
  if (kind === 'link-local' || isMetadataAddress(ip)) return { subject: ip, why: `${CLASS_WORDS['link-local']}, ${ALWAYS}` };
  if (kind === 'public') return null;
  if (kind === 'reserved') return { subject: ip, why: `${CLASS_WORDS.reserved}, ${ALWAYS}` };
  if (policy.internalPorts.has(port)) return { subject: `${ip}:${port}`, why: `one of this service's own ports, ${ALWAYS}` };
  if (policy.privateNetwork === 'allow') return null;
  return { subject: ip, why: `${CLASS_WORDS[kind]}, ${DENIED}` };
}

/** Why `ip:port` may not be reached under `policy` (a sentence), or null when it may. */
export function refusalReason(policy: EgressPolicy, ip: string, port: number): string | null {
  const v = verdict(policy, ip, port);
  return v && `${v.subject} is ${v.why}`;
}

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: Lookup = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/**
 * Resolves `host` once and checks every address it resolves to (one refused address refuses the
 * name: a name that answers both public and private addresses is a rebinding attempt). Throws
 * EgressRefusedError, or the resolver's own error (ENOTFOUND …) for a name that does not resolve.
 */
export async function resolveEgress(policy: EgressPolicy, host: string, port: number, lookup: Lookup = systemLookup): Promise<ResolvedTarget> {
  const literal = ipLiteral(host);
  const addresses = literal ? [{ address: literal, family: net.isIP(literal) }] : await lookup(host.replace(/\.$/, ''));
  if (addresses.length === 0) throw Object.assign(new Error(`${host} does not resolve`), { code: 'ENOTFOUND' });
  for (const { address } of addresses) {
    const v = verdict(policy, address, port);
    if (v) throw new EgressRefusedError(`${host}:${port}`, literal ? `${v.subject} is ${v.why}` : `${host} resolves to ${v.subject}, ${v.why}`);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** The port a URL connects to (its default when it names none). */
export function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80;
}

/** Checks a URL's host without connecting (control-plane validation); throws EgressRefusedError. */
export async function checkUrl(policy: EgressPolicy, raw: string | URL, lookup?: Lookup): Promise<ResolvedTarget> {
  const url = typeof raw === 'string' ? new URL(raw) : raw;
  return resolveEgress(policy, url.hostname, portOf(url), lookup);
}

/**
 * For validating an address a tenant gives (control plane, data API): the policy's refusal as a
 * message naming host and port (never the path or query, which may carry a secret), or null. A
 * name that does not resolve is not a refusal: the connection attempt reports it.
 */
export async function egressRefusal(policy: EgressPolicy, raw: string, lookup?: Lookup): Promise<string | null> {
  try {
    await checkUrl(policy, raw, lookup);
    return null;
  } catch (error) {
    if (error instanceof EgressRefusedError) return error.message;
    return null;
  }
}
