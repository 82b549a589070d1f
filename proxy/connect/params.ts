// Query parameters of GET /v1/connect (docs/connect.md), checked against the router's switches.
import { connectPaymentRefusal, type WalletState } from '../../lib/billing/gates';
import { Refusal } from './refuse';
import type { RouterRuntime } from '../config/router-store';

export interface ConnectParams {
  provider: string | null;
  profile: string | null;
  readOnly: boolean;
  record: boolean;
  observability: boolean;
}

export function parseConnectParams(url: URL): ConnectParams {
  const q = url.searchParams;
  const bool = (name: string, truthy: string) => {
    const value = q.get(name);
    if (value === null || value === '' || value === 'false' || value === '0') return false;
    if (value === truthy || value === 'true' || value === '1') return true;
    throw new Refusal(400, `${name} must be ${truthy} (got "${value}")`);
  };
  return {
    provider: q.get('provider') || null,
    profile: q.get('profile') || null,
    readOnly: bool('readOnly', '1'),
    record: bool('session_record', 'true'),
    observability: bool('observability', 'true'),
  };
}

/** The router's switches and the wallet allow what the connect asks for. */
export function checkFeatures(params: ConnectParams, router: RouterRuntime, wallet: WalletState): void {
  if (params.profile && !router.switches.profilesEnabled)
    throw new Refusal(409, 'the Profiles switch is off on this router; turn it on in the router settings or connect without profile=');
  if (params.record && !router.switches.replayEnabled)
    throw new Refusal(409, 'the Recording switch is off on this router; turn it on in the router settings or connect without session_record=');
  if (params.observability && !router.switches.observabilityEnabled)
    throw new Refusal(409, 'the Traces switch is off on this router; turn it on in the router settings or connect without observability=');
  const paidFeatures = [params.record && 'session_record', params.observability && 'observability'].filter((f): f is string => Boolean(f));
  const unpaid = connectPaymentRefusal(wallet, paidFeatures);
  if (unpaid) throw new Refusal(402, unpaid);
  if (params.readOnly && !params.profile) throw new Refusal(400, 'readOnly=1 only applies together with profile=');
}
