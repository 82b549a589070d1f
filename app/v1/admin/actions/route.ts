import { listOperatorActions } from '@/lib/admin/actions';
import { endpoint } from '@/lib/api/endpoint';
import { accountOps } from '@/lib/openapi/operations/accounts';

// GET /v1/admin/actions?workspaceId=&page=&pageSize= — the operator's audit log, newest first
export const GET = endpoint(accountOps.listOperatorActions, (ctx) => listOperatorActions(ctx.query));
