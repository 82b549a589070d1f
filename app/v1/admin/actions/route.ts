import { listOperatorActions } from '@/lib/admin/actions';
import { operatorEndpoints } from '@/lib/admin/endpoints';
import { endpoint } from '@/lib/api/endpoint';

// GET /v1/admin/actions?workspaceId=&page=&pageSize= — the operator's audit log, newest first
export const GET = endpoint(operatorEndpoints.listOperatorActions, (ctx) => listOperatorActions(ctx.query));
