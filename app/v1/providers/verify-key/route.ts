import { api } from '@/lib/api/handler';
import { verifyKeySchema } from '@/lib/providers/schemas';
import { verifyKey } from '@/lib/providers/verify-key';

// POST /v1/providers/verify-key — owner/admin; checks a vendor key without starting a browser (401 rejected, 502 unreachable)
export const POST = api({ router: true, role: 'admin', counted: true, body: verifyKeySchema }, (ctx) => verifyKey(ctx.body));
