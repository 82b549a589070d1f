import { endpoint } from '@/lib/api/endpoint';
import { cancelInvitation } from '@/lib/invitations/manage-invitations';
import { accountOps } from '@/lib/openapi/operations/accounts';

// DELETE /v1/invitations/:id — owner/admin; cancels a pending invitation
export const DELETE = endpoint(accountOps.cancelInvitation, (ctx) => cancelInvitation(ctx.workspace.id, ctx.params.id));
