import { api } from '@/lib/api/handler';
import { requestAccountDeletion } from '@/lib/users/delete-account';
import { updateAccountSchema } from '@/lib/users/schemas';
import { updateAccountName } from '@/lib/users/update-account';

// PATCH /v1/account — { name }; answers { user } as in GET /v1/me
export const PATCH = api({ workspace: 'none', body: updateAccountSchema }, (ctx) => updateAccountName(ctx.user.id, ctx.body.name));

// DELETE /v1/account — marks the account and the workspaces it owns alone for deletion; signs out
export const DELETE = api({ workspace: 'none' }, (ctx) => requestAccountDeletion(ctx.user.id));
