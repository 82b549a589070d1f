// Where a provider's browser is. Address providers: their stored URL. Key-based providers: a
// browser the vendor starts for this session, released by the vendor's end-of-session rule
// (adapter-one keeps it 15 minutes for the next connect to the same provider, adapter-two stops it).
import { getAdapter, VendorError, type SessionRef } from '../../lib/providers/adapters';
import type { AdapterKind } from '../../lib/providers/schemas';
import { log } from '../../lib/log';
import { egressPolicy, type EgressPolicy } from '../../lib/net/egress-policy';
import { outboundAddress } from '../../lib/providers/egress';
import type { RuntimeProvider } from '../config/router-store';
import { DialError } from '../websocket/dial';

export interface UpstreamTarget {
  url: string;
  headers: Record<string, string>;
  /** What the dial may reach (the local pool is exempt; every other address is under the policy). */
  policy: EgressPolicy;
  /** Ends the vendor browser's part in this session; `reason` picks the vendor rule. */
  release(reason: 'disconnect' | 'close' | 'error'): void;
}

export async function resolveTarget(provider: RuntimeProvider): Promise<UpstreamTarget> {
  if (!provider.adapterKind) {
    if (!provider.url) throw new DialError('error', 'the provider has no address');
    return { ...outboundAddress({ url: provider.url, headers: provider.headers }), release: () => {} };
  }
  if (!provider.credentials) throw new DialError('error', 'the provider has no vendor key');
  const adapter = getAdapter(provider.adapterKind as AdapterKind);
  const credentials = provider.credentials;
  let created;
  try {
    // A reconnect to the same provider may be handed the browser adapter-one kept.
    created = await adapter.createSession(credentials, provider.options as never, { reuseKey: provider.id });
  } catch (error) {
    const message = error instanceof VendorError ? `vendor ${error.kind.replace('_', ' ')}: ${error.message}` : (error as Error).message;
    throw new DialError(error instanceof VendorError && error.kind === 'unreachable' ? 'refused' : 'rejected', message);
  }
  const ref: SessionRef = { vendorSessionId: created.vendorSessionId, connectUrl: created.connectUrl, reuseKey: provider.id };
  let released = false;
  return {
    url: created.connectUrl,
    headers: {},
    policy: egressPolicy(),
    release(reason) {
      if (released) return;
      released = true;
      adapter
        .releaseSession(credentials, ref, reason)
        .catch((error: Error) => log.warn({ provider: provider.slug, err: error.message }, 'vendor release failed'));
    },
  };
}
