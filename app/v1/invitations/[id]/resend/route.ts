import { api } from '@/lib/api/handler';
import { resendInvitation } from '@/lib/invitations/manage-invitations';

// POST /v1/invitations/:id/resend — owner/admin; new link, new 7-day expiry, e-mail re-sent
export const POST = api({ role: 'admin' }, (ctx) => resendInvitation(ctx.workspace, ctx.params.id!, ctx.user));
