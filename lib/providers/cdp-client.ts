// A provider check's CDP connection: the product's WebSocket client (lib/cdp/socket.ts), opened
// with the provider's headers to an address the egress policy allows, and its failures worded for
// the person who typed the address. Messages name the host and port only: paths and query strings
// may carry tokens.
import { CdpError } from '../cdp/errors';
import { CdpSocket } from '../cdp/socket';
import { pinnedLookup } from '../net/egress-connect';
import { checkUrl, type EgressPolicy } from '../net/egress-policy';
import { hostOf, type ProviderHeaders } from './address';
import { ProviderCheckError } from './check-errors';

/** A provider's browser connection and the host its failures name. */
export interface ProviderCdp {
  socket: CdpSocket;
  host: string;
}

/**
 * Opens the WebSocket with the provider's headers. `handshakeTimeoutMs` runs until the provider's
 * `101 Switching Protocols`, not until TCP connect (as the router's connectionTimeoutMs does);
 * `reportedTimeoutMs` is the timeout a failure names (the router's), when the budget left is less.
 */
export async function connectCdp(
  url: string,
  headers: ProviderHeaders,
  handshakeTimeoutMs: number,
  reportedTimeoutMs: number,
  policy: EgressPolicy,
): Promise<ProviderCdp> {
  const host = hostOf(url);
  try {
    // Resolved and checked once; the WebSocket connects to that address (no DNS rebinding).
    const lookup = pinnedLookup(await checkUrl(policy, url));
    return { socket: await CdpSocket.open(url, { headers, handshakeTimeoutMs, maxPayload: 64 * 1024 * 1024, lookup }), host };
  } catch (error) {
    throw openFailure(error, host, handshakeTimeoutMs, reportedTimeoutMs);
  }
}

function openFailure(error: unknown, host: string, handshakeTimeoutMs: number, reportedTimeoutMs: number): ProviderCheckError {
  if (!(error instanceof CdpError)) return ProviderCheckError.fromNetwork(error, host, handshakeTimeoutMs, 'WebSocket upgrade');
  const { status, cause } = error.details;
  switch (error.kind) {
    case 'timeout':
      return new ProviderCheckError(`no WebSocket upgrade from ${host} within ${reportedTimeoutMs} ms`);
    case 'refused':
      return new ProviderCheckError(
        `${host} refused the WebSocket upgrade with HTTP ${status}${status === 401 || status === 403 ? ' (check the address token or headers)' : ''}`,
      );
    default:
      return cause
        ? ProviderCheckError.fromNetwork(cause, host, handshakeTimeoutMs, 'WebSocket upgrade')
        : new ProviderCheckError(`${host} closed the connection before the WebSocket upgrade`);
  }
}

/** A check's words for what failed on the open connection to `host` (other errors as they are). */
export function checkFailure(error: unknown, host: string): Error {
  if (!(error instanceof CdpError)) return error as Error;
  const { method, detail, timeoutMs, code, cause, byUs } = error.details;
  switch (error.kind) {
    case 'answered':
      return new ProviderCheckError(`${method} failed: ${detail}`);
    case 'timeout':
      return new ProviderCheckError(`no answer to ${method} from ${host} within ${timeoutMs} ms`);
    case 'closed':
      return new ProviderCheckError(
        byUs ? 'closed by us' : cause ? `CDP connection to ${host} failed: ${cause.message}` : `${host} closed the CDP connection (code ${code})`,
      );
    default:
      return new ProviderCheckError(error.message);
  }
}
