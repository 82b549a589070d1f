import { endpoint } from '@/lib/api/endpoint';
import { undeleteAccount } from '@/lib/users/delete-account';
import { userEndpoints } from '@/lib/users/endpoints';

// POST /v1/account/undelete — signed in; undoes deletion within 30 days
export const POST = endpoint(userEndpoints.undeleteAccount, (ctx) => undeleteAccount(ctx.user));
