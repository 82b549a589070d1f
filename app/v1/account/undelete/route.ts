import { api } from '@/lib/api/handler';
import { undeleteAccount } from '@/lib/users/delete-account';

// POST /v1/account/undelete — signed in; undoes deletion within 30 days
export const POST = api({ workspace: 'none', auth: 'pending-deletion-ok' }, (ctx) => undeleteAccount(ctx.user));
