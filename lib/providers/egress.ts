// Provider addresses under the egress policy (lib/net/egress-policy.ts): every test, probe, dial
// and health check of an address provider connects only where the policy lets it, and the
// control plane refuses an address the policy refuses with a 400 that names the setting. The
// local pool (LOCAL_POOL_URL) is the product's own provider and is exempt, whatever its address.
import { invalidField } from '../api/errors';
import { ipLiteral } from '../net/addresses';
import { egressPolicy, egressRefusal, portOf, type EgressPolicy } from '../net/egress-policy';
import { settings } from '../config/settings';

/** Only link-local and metadata addresses stay refused: the pool is on loopback by design. */
const LOCAL_POOL_POLICY: EgressPolicy = { privateNetwork: 'allow', internalPorts: new Set() };

function endpoint(raw: string): { host: string; port: number } | null {
  try {
    const url = new URL(raw);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    return { host: ipLiteral(host) ?? host.toLowerCase(), port: portOf(url) };
  } catch {
    return null;
  }
}

/** Is this address the local browser pool `npm start` runs (same host and port as LOCAL_POOL_URL)? */
export function isLocalPool(raw: string): boolean {
  const configured = settings().localPoolUrl;
  const pool = configured ? endpoint(configured) : null;
  const target = endpoint(raw);
  return pool !== null && target !== null && pool.host === target.host && pool.port === target.port;
}

/** A provider address as the service goes out to it: the policy the connection is held to, and the headers sent. */
export interface OutboundAddress {
  url: string;
  headers: Record<string, string>;
  policy: EgressPolicy;
}

/**
 * Every connection to a provider address (test, probe, dial, health check, data API) starts here.
 * The local pool is exempt from the policy and gets its token, added on the way out: the token is
 * never stored with a provider, so no tenant can read it back or redirect it by changing the address.
 */
export function outboundAddress(address: { url: string; headers: Record<string, string> }): OutboundAddress {
  const token = settings().poolToken;
  if (!isLocalPool(address.url)) return { url: address.url, headers: address.headers, policy: egressPolicy() };
  if (!token) return { url: address.url, headers: address.headers, policy: LOCAL_POOL_POLICY };
  const rest = Object.fromEntries(Object.entries(address.headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
  return { url: address.url, headers: { ...rest, Authorization: `Bearer ${token}` }, policy: LOCAL_POOL_POLICY };
}

/** Control plane: a 400 `validation_error` on `url` when the policy refuses the address. */
export async function assertProviderAddressAllowed(raw: string): Promise<void> {
  const refused = await egressRefusal(isLocalPool(raw) ? LOCAL_POOL_POLICY : egressPolicy(), raw);
  if (refused) throw invalidField('url', refused);
}
