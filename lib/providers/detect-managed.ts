// Is this provider one of our own managed browser pools? The pool's fixed protocol: on the
// provider's host and port, `GET /pool/status` (with the provider's headers) answers
// `{ "kind": "managed", "version": 1, "capacity": n, "active": n, "calibrating": bool, "indexedDb": true }`.
// Anything else, including no answer, means a generic provider.
import { egressFetch } from '../net/egress-connect';
import type { EgressPolicy } from '../net/egress-policy';
import { httpHeaders, httpOrigin, type ProviderHeaders } from './address';
import { readCapped } from '../http/read-capped';

export interface PoolStatus {
  kind: 'managed';
  version: 1;
  capacity: number;
  active: number;
  calibrating: boolean;
  indexedDb: boolean;
}

export interface FetchedResponse {
  status: number;
  body: string;
}

const MAX_BODY_BYTES = 64 * 1024;
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** Pure: the pool status carried by a response, or null when it is not a managed pool's answer. */
export function parsePoolStatus(response: FetchedResponse): PoolStatus | null {
  if (response.status !== 200) return null;
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const body = json as Record<string, unknown>;
  if (body.kind !== 'managed' || body.version !== 1) return null;
  if (!isCount(body.capacity) || !isCount(body.active) || typeof body.calibrating !== 'boolean') return null;
  // indexedDb is informative (the pool saves IndexedDB); a missing flag does not make the pool generic.
  return { kind: 'managed', version: 1, capacity: body.capacity, active: body.active, calibrating: body.calibrating, indexedDb: body.indexedDb === true };
}

/** `ws://host:port/…` → `http://host:port/pool/status`. */
export const poolStatusUrl = (providerUrl: string) => `${httpOrigin(providerUrl)}/pool/status`;

/** Asks the provider for its pool status; never throws (no answer means generic). */
export async function fetchPoolStatus(providerUrl: string, headers: ProviderHeaders, timeoutMs: number, policy: EgressPolicy): Promise<PoolStatus | null> {
  try {
    const response = await egressFetch(policy, poolStatusUrl(providerUrl), {
      headers: { Accept: 'application/json', ...httpHeaders(providerUrl, headers) },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    const bytes = response.body ? await readCapped(response.body, MAX_BODY_BYTES) : Buffer.alloc(0);
    const body = bytes?.toString('utf8') ?? null;
    return body === null ? null : parsePoolStatus({ status: response.status, body });
  } catch {
    return null;
  }
}
