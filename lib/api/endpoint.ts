// A route of the web process (/v1, and the dashboard's /api) served from its one declaration
// (lib/<domain>/endpoints.ts): the route file names the operation and gives the handler; who may
// call, what is resolved, the role, the operator check, the daily cap and the input's schemas all
// come from the declaration, as the OpenAPI document does, and the handler's context is typed
// from it (lib/api/declared.ts).
import type { OperationSpec } from '../openapi/operation';
import { isInstanceAdmin } from '../users/instance-admin';
import { optionsOf, type EndpointContext } from './declared';
import { forbidden } from './errors';
import { api, type ApiContext } from './handler';

/** The route handler of one declared operation (`export const GET = endpoint(webhookEndpoints.getWebhook, …)`). */
export function endpoint<const Op extends OperationSpec>(op: Op, handler: (ctx: EndpointContext<Op>) => Promise<unknown>) {
  const scope = op.scope ?? 'workspace';
  return api(optionsOf(op), async (raw: ApiContext<unknown, unknown>) => {
    if (op.operator && !(raw.user && (await isInstanceAdmin(raw.user)))) throw forbidden('only the operator of this installation can do this');
    const ctx = {
      req: raw.req,
      requestId: raw.requestId,
      log: raw.log,
      params: raw.params,
      body: raw.body,
      query: raw.query,
      ...(op.auth === 'none' ? {} : { user: raw.user, via: raw.via }),
      // Resolved by the wrapper before the handler runs (it answers 404 when they cannot be).
      ...(scope === 'none' ? {} : { workspace: scope === 'workspace-if-any' ? raw.maybeWorkspace : raw.workspace }),
      ...(scope === 'router' ? { router: raw.router } : {}),
    };
    return handler(ctx as EndpointContext<Op>);
  });
}
