import { getAdapter } from './adapters';
import type { VerifyKeyInput } from './schemas';
import { vendorToApiError } from './vendor-errors';

/** POST /v1/providers/verify-key: a read-only vendor call, never a (billed) browser. */
export async function verifyKey(input: Pick<VerifyKeyInput, 'adapterKind' | 'credentials'>) {
  try {
    const { displayName } = await getAdapter(input.adapterKind).verifyKey(input.credentials);
    return { verified: true as const, provider: displayName };
  } catch (error) {
    throw vendorToApiError(error);
  }
}
