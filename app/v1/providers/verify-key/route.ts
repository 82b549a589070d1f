import { endpoint } from '@/lib/api/endpoint';
import { providerOps } from '@/lib/openapi/operations/providers';
import { verifyKey } from '@/lib/providers/verify-key';

// POST /v1/providers/verify-key — owner/admin; checks a vendor key without starting a browser (401 rejected, 502 unreachable)
export const POST = endpoint(providerOps.verifyProviderKey, (ctx) => verifyKey(ctx.body));
