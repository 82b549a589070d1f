import { detectKind } from './check-provider';
import { getConnectionTimeoutMs, type RouterScope } from './read-providers';

/** POST /v1/providers/probe: which kind of provider answers at this address (null: nothing does). */
export async function probeUrl(scope: RouterScope, address: { url: string; headers?: Record<string, string> }) {
  return detectKind({ url: address.url, headers: address.headers ?? {} }, await getConnectionTimeoutMs(scope));
}
