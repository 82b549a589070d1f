import { api } from '@/lib/api/handler';
import { cancelInvitation } from '@/lib/invitations/manage-invitations';

// DELETE /v1/invitations/:id — owner/admin; cancels a pending invitation
export const DELETE = api({ role: 'admin' }, (ctx) => cancelInvitation(ctx.workspace.id, ctx.params.id!));
