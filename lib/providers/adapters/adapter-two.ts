// adapter-two, modelled on Browser Use's browser sessions API (docs/vendors.md): key in
// X-Browser-Use-API-Key; POST /browsers with timeout (minutes) and proxyCountryCode; PATCH
// /browsers/{id} { action: "stop" }; GET /billing/account as the key check. End of session: the
// browser is stopped at once, so the vendor refunds the unused prepaid time.
import { egressPolicy } from '../../net/egress-policy';
import { resolveBrowserUrl } from '../address';
import { ProviderCheckError } from '../check-errors';
import type { AdapterTwoOptions } from '../schemas';
import { VendorError, type CreatedSession, type ReleaseResult, type VendorAdapter, type VendorCredentials } from './types';
import { vendorRequest } from './vendor-http';
import { settings } from '../../config/settings';

export const ADAPTER_TWO_DEFAULT_BASE_URL = 'https://api.browser-use.com/api/v3';
const KEY_CHECK_TIMEOUT_MS = 10_000;
const CREATE_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const RESOLVE_TIMEOUT_MS = 10_000;
const VENDOR = 'Browser Use';

interface BrowserSessionView {
  id?: unknown;
  cdpUrl?: unknown;
}

/** Where the vendor's API is and how a request proves the key: read at each request. */
interface BrowserUseApi {
  baseUrl: () => string;
  auth: (credentials: VendorCredentials) => Record<string, string>;
}

export function createAdapterTwo(config: { baseUrl?: string } = {}): VendorAdapter<AdapterTwoOptions> {
  const api: BrowserUseApi = {
    baseUrl: () => config.baseUrl ?? settings().adapterTwoBaseUrl ?? ADAPTER_TWO_DEFAULT_BASE_URL,
    auth: (credentials) => ({ 'X-Browser-Use-API-Key': credentials.apiKey }),
  };

  return {
    kind: 'adapter-two',
    displayName: VENDOR,

    async verifyKey(credentials) {
      // The account endpoint is read-only; the vendor answers 404 when no project has this key.
      await vendorRequest({
        vendor: VENDOR,
        baseUrl: api.baseUrl(),
        method: 'GET',
        path: '/billing/account',
        headers: api.auth(credentials),
        timeoutMs: KEY_CHECK_TIMEOUT_MS,
        rejectedStatuses: [401, 403, 404],
      });
      return { displayName: VENDOR };
    },

    createSession: (credentials, options) => createBrowser(api, credentials, options),

    async releaseSession(credentials, session): Promise<ReleaseResult> {
      await stopBrowser(api, credentials, session.vendorSessionId);
      return { stopped: true, keptUntil: null };
    },

    async shutdown() {
      // Nothing is kept: every session is stopped when it is released.
    },
  };
}

/** Starts a browser and resolves its WebSocket address; a browser that cannot be used is stopped again. */
async function createBrowser(api: BrowserUseApi, credentials: VendorCredentials, options: AdapterTwoOptions): Promise<CreatedSession> {
  // proxyCountryCode null switches the vendor's proxy off (it is on by default there).
  const body = { timeout: options.timeoutMinutes, proxyCountryCode: options.proxyCountryCode };
  const { body: session } = await vendorRequest<BrowserSessionView>({
    vendor: VENDOR,
    baseUrl: api.baseUrl(),
    method: 'POST',
    path: '/browsers',
    headers: api.auth(credentials),
    body,
    timeoutMs: CREATE_TIMEOUT_MS,
  });
  if (typeof session?.id !== 'string' || typeof session.cdpUrl !== 'string') {
    if (typeof session?.id === 'string') await stopBrowser(api, credentials, session.id).catch(() => {});
    throw new VendorError('failed', `${VENDOR} answered without id and cdpUrl`);
  }
  try {
    // cdpUrl may be the browser's http(s) base; the relay needs its WebSocket address.
    const connectUrl = await resolveBrowserUrl(session.cdpUrl, {}, RESOLVE_TIMEOUT_MS, egressPolicy());
    return { connectUrl, vendorSessionId: session.id, reused: false };
  } catch (error) {
    await stopBrowser(api, credentials, session.id).catch(() => {}); // prepaid: stop it rather than pay for nothing
    throw new VendorError(
      'unreachable',
      `the ${VENDOR} browser did not answer: ${error instanceof ProviderCheckError ? error.message : (error as Error).message}`,
    );
  }
}

/** Stops the browser; one already stopped and gone is not an error. */
async function stopBrowser(api: BrowserUseApi, credentials: VendorCredentials, vendorSessionId: string): Promise<void> {
  try {
    await vendorRequest({
      vendor: VENDOR,
      baseUrl: api.baseUrl(),
      method: 'PATCH',
      path: `/browsers/${encodeURIComponent(vendorSessionId)}`,
      headers: api.auth(credentials),
      body: { action: 'stop' },
      timeoutMs: STOP_TIMEOUT_MS,
    });
  } catch (error) {
    if (error instanceof VendorError && error.status === 404) return; // already stopped and gone
    throw error;
  }
}
