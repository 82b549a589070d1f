import { endpoint } from '@/lib/api/endpoint';
import { accountOps } from '@/lib/openapi/operations/accounts';
import { undeleteAccount } from '@/lib/users/delete-account';

// POST /v1/account/undelete — signed in; undoes deletion within 30 days
export const POST = endpoint(accountOps.undeleteAccount, (ctx) => undeleteAccount(ctx.user));
