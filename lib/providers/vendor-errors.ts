// A vendor's answer about a key, in the API's envelope: docs/api.md says verify-key gives 401 when the
// provider rejects the key and 502 when it is unreachable.
import { ApiError } from '../api/errors';
import { VendorError } from './adapters';

export function vendorToApiError(error: unknown): unknown {
  if (!(error instanceof VendorError)) return error;
  if (error.kind === 'rejected_key') return new ApiError('provider_rejected_key', error.message);
  return new ApiError('provider_unreachable', error.message);
}
