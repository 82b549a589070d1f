// adapter-one, modelled on Kernel's browsers API (docs/vendors.md): bearer key; POST /browsers
// with stealth, timeout_seconds and region; DELETE /browsers/{id}; GET /browsers as the key check.
// End of session: the browser is kept 15 minutes so a reconnect reuses it, then deleted.
import type { AdapterOneOptions } from '../schemas';
import { KeptBrowsers } from './kept-browsers';
import {
  systemTimers,
  VendorError,
  type CreatedSession,
  type ReleaseResult,
  type SessionRef,
  type Timers,
  type VendorAdapter,
  type VendorCredentials,
} from './types';
import { vendorRequest } from './vendor-http';
import { settings } from '../../config/settings';

export const ADAPTER_ONE_DEFAULT_BASE_URL = 'https://api.onkernel.com';
export const KEEP_FOR_RECONNECT_MS = 15 * 60_000;
const KEY_CHECK_TIMEOUT_MS = 10_000;
const CREATE_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const VENDOR = 'Kernel';

interface KernelBrowser {
  session_id?: unknown;
  cdp_ws_url?: unknown;
}

export interface AdapterOptions {
  /** Defaults to ADAPTER_ONE_BASE_URL. */
  baseUrl?: string;
  timers?: Timers;
}

const auth = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });

async function deleteBrowser(baseUrl: string, apiKey: string, vendorSessionId: string): Promise<void> {
  try {
    await vendorRequest({
      vendor: VENDOR,
      baseUrl,
      method: 'DELETE',
      path: `/browsers/${encodeURIComponent(vendorSessionId)}`,
      headers: auth(apiKey),
      timeoutMs: STOP_TIMEOUT_MS,
    });
  } catch (error) {
    if (error instanceof VendorError && error.status === 404) return; // already gone (its own idle timeout)
    throw error;
  }
}

/** A kept browser is only handed out again if the vendor still has it. */
async function stillRunning(baseUrl: string, credentials: VendorCredentials, vendorSessionId: string): Promise<boolean> {
  try {
    await vendorRequest({
      vendor: VENDOR,
      baseUrl,
      method: 'GET',
      path: `/browsers/${encodeURIComponent(vendorSessionId)}`,
      headers: auth(credentials.apiKey),
      timeoutMs: KEY_CHECK_TIMEOUT_MS,
    });
    return true;
  } catch {
    return false;
  }
}

/** A new browser at the vendor; one answered without its address is deleted again. */
async function startBrowser(baseUrl: string, credentials: VendorCredentials, options: AdapterOneOptions): Promise<CreatedSession> {
  const body: Record<string, unknown> = { stealth: options.stealth, timeout_seconds: options.timeoutSeconds };
  if (options.region) body.region = options.region;
  const { body: browser } = await vendorRequest<KernelBrowser>({
    vendor: VENDOR,
    baseUrl,
    method: 'POST',
    path: '/browsers',
    headers: auth(credentials.apiKey),
    body,
    timeoutMs: CREATE_TIMEOUT_MS,
  });
  if (typeof browser?.session_id !== 'string' || typeof browser.cdp_ws_url !== 'string') {
    if (typeof browser?.session_id === 'string') await deleteBrowser(baseUrl, credentials.apiKey, browser.session_id).catch(() => {});
    throw new VendorError('failed', `${VENDOR} answered without session_id and cdp_ws_url`);
  }
  return { connectUrl: browser.cdp_ws_url, vendorSessionId: browser.session_id, reused: false };
}

export function createAdapterOne(config: AdapterOptions = {}): VendorAdapter<AdapterOneOptions> & { readonly kept: KeptBrowsers } {
  const baseUrl = () => config.baseUrl ?? settings().adapterOneBaseUrl ?? ADAPTER_ONE_DEFAULT_BASE_URL;
  const kept = new KeptBrowsers(config.timers ?? systemTimers, KEEP_FOR_RECONNECT_MS, (apiKey, id) => deleteBrowser(baseUrl(), apiKey, id));

  return {
    kind: 'adapter-one',
    displayName: VENDOR,
    kept,

    async verifyKey(credentials) {
      // Listing browsers is read-only: it proves the key without starting a billed browser.
      await vendorRequest({
        vendor: VENDOR,
        baseUrl: baseUrl(),
        method: 'GET',
        path: '/browsers',
        headers: auth(credentials.apiKey),
        timeoutMs: KEY_CHECK_TIMEOUT_MS,
      });
      return { displayName: VENDOR };
    },

    async createSession(credentials, options, context = {}): Promise<CreatedSession> {
      if (context.reuseKey) {
        const previous = kept.take(credentials.apiKey, context.reuseKey);
        if (previous && (await stillRunning(baseUrl(), credentials, previous.vendorSessionId))) {
          return { connectUrl: previous.connectUrl, vendorSessionId: previous.vendorSessionId, reused: true };
        }
      }
      return startBrowser(baseUrl(), credentials, options);
    },

    async releaseSession(credentials, session: SessionRef): Promise<ReleaseResult> {
      return { stopped: false, keptUntil: kept.keep(credentials.apiKey, session) };
    },

    async shutdown() {
      await kept.stopAll();
    },
  };
}
