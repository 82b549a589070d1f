import { api } from '@/lib/api/handler';
import { requestAccountDeletion } from '@/lib/users/delete-account';

// DELETE /v1/account — marks the account and the workspaces it owns alone for deletion; signs out
export const DELETE = api({ workspace: 'none' }, (ctx) => requestAccountDeletion(ctx.user.id));
