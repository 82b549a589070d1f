import { endpoint } from '@/lib/api/endpoint';
import { providerEndpoints } from '@/lib/providers/endpoints';
import { verifyKey } from '@/lib/providers/verify-key';

// POST /v1/providers/verify-key — owner/admin; checks a vendor key without starting a browser (401 rejected, 502 unreachable)
export const POST = endpoint(providerEndpoints.verifyProviderKey, (ctx) => verifyKey(ctx.body));
