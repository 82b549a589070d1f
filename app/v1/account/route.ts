import { endpoint } from '@/lib/api/endpoint';
import { requestAccountDeletion } from '@/lib/users/delete-account';
import { userEndpoints } from '@/lib/users/endpoints';
import { updateAccountName } from '@/lib/users/update-account';

// PATCH /v1/account — { name }; answers { user } as in GET /v1/me
export const PATCH = endpoint(userEndpoints.updateAccount, (ctx) => updateAccountName(ctx.user.id, ctx.body.name));

// DELETE /v1/account — marks the account and the workspaces it owns alone for deletion; signs out
export const DELETE = endpoint(userEndpoints.deleteAccount, (ctx) => requestAccountDeletion(ctx.user.id));
