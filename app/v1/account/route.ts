import { endpoint } from '@/lib/api/endpoint';
import { accountOps } from '@/lib/openapi/operations/accounts';
import { requestAccountDeletion } from '@/lib/users/delete-account';
import { updateAccountName } from '@/lib/users/update-account';

// PATCH /v1/account — { name }; answers { user } as in GET /v1/me
export const PATCH = endpoint(accountOps.updateAccount, (ctx) => updateAccountName(ctx.user.id, ctx.body.name));

// DELETE /v1/account — marks the account and the workspaces it owns alone for deletion; signs out
export const DELETE = endpoint(accountOps.deleteAccount, (ctx) => requestAccountDeletion(ctx.user.id));
