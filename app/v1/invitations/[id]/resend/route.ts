import { endpoint } from '@/lib/api/endpoint';
import { resendInvitation } from '@/lib/invitations/manage-invitations';
import { accountOps } from '@/lib/openapi/operations/accounts';

// POST /v1/invitations/:id/resend — owner/admin; new link, new 7-day expiry, e-mail re-sent
export const POST = endpoint(accountOps.resendInvitation, (ctx) => resendInvitation(ctx.workspace, ctx.params.id, ctx.user));
