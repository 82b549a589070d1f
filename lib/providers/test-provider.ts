// POST /v1/providers/:slug/test and POST /v1/providers/test-url: HTTP 200 either way, with
// `{ ok: true, latencyMs }` or `{ ok: false, reason }`. A key-based provider's saved key is checked
// instead of opening a browser.
import { getAdapter, VendorError } from './adapters';
import { testAddress, type ProviderAddress, type TestOutcome } from './check-provider';
import { getConnectionTimeoutMs, getProviderRowOrThrow, type RouterScope } from './read-providers';
import type { AdapterKind } from './schemas';
import { openAddress, openCredentials } from './secrets';

export async function testProvider(scope: RouterScope, slug: string): Promise<TestOutcome> {
  const provider = await getProviderRowOrThrow(scope, slug);
  const credentials = openCredentials(provider);
  if (provider.adapterKind && credentials) return testKey(provider.adapterKind as AdapterKind, credentials);
  const address = openAddress(provider);
  if (!address) return { ok: false, reason: 'the provider has neither an address nor a key' };
  return testAddress(address, await getConnectionTimeoutMs(scope));
}

export async function testUrl(scope: RouterScope, address: { url: string; headers?: Record<string, string> }): Promise<TestOutcome> {
  const target: ProviderAddress = { url: address.url, headers: address.headers ?? {} };
  return testAddress(target, await getConnectionTimeoutMs(scope));
}

async function testKey(kind: AdapterKind, credentials: { apiKey: string }): Promise<TestOutcome> {
  const started = Date.now();
  try {
    await getAdapter(kind).verifyKey(credentials);
    return { ok: true, latencyMs: Date.now() - started };
  } catch (error) {
    if (error instanceof VendorError) return { ok: false, reason: error.message };
    throw error;
  }
}
