import { endpoint } from '@/lib/api/endpoint';
import { invitationEndpoints } from '@/lib/invitations/endpoints';
import { resendInvitation } from '@/lib/invitations/manage-invitations';

// POST /v1/invitations/:id/resend — owner/admin; new link, new 7-day expiry, e-mail re-sent
export const POST = endpoint(invitationEndpoints.resendInvitation, (ctx) => resendInvitation(ctx.workspace, ctx.params.id, ctx.user));
