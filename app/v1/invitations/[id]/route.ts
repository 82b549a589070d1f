import { endpoint } from '@/lib/api/endpoint';
import { invitationEndpoints } from '@/lib/invitations/endpoints';
import { cancelInvitation } from '@/lib/invitations/manage-invitations';

// DELETE /v1/invitations/:id — owner/admin; cancels a pending invitation
export const DELETE = endpoint(invitationEndpoints.cancelInvitation, (ctx) => cancelInvitation(ctx.workspace.id, ctx.params.id));
