// The one wrapper around every /v1 route handler. In order: authenticate, resolve the workspace
// and router, check the role, refuse bearers on cookie-only endpoints, check same-origin for
// cookie mutations, validate input, count the call against the daily bearer cap, run the handler,
// and write `{ ok: true, data }` or `{ ok: false, error: { code, message, details? } }`.
// Input is checked before anything uses it: no NUL character in a path segment, query value or
// body string (PostgreSQL refuses it in text), a JSON body of at most 1 MB unless the route allows
// more (`maxBodyBytes`, lib/api/request-body.ts).
import { randomUUID } from 'node:crypto';
import { NextResponse, type NextRequest } from 'next/server';
import { z } from 'zod';
import type { Role } from '../db';
import { log as rootLog, type Logger } from '../log';
import { countBearerCall } from '../rate-limit/daily-cap';
import { authenticate } from './authenticate';
import { roleAtLeast, type AuthUser, type AuthVia, type ResolvedRouter, type ResolvedWorkspace } from './context';
import { ApiError, billingErrorBody, errorBody, fromDatabaseError, invalidFields, notFound } from './errors';
import { NO_BODY, readJsonBody } from './request-body';
import { resolveRouter, resolveWorkspace } from './resolve';
import { isSameOrigin } from './origin';
import { clientInput, fieldIssues, nulIssues } from './validation';

export interface ApiOptions<B extends z.ZodType, Q extends z.ZodType> {
  /** `required` (default), `optional` (anonymous allowed), `pending-deletion-ok`, or `none` (credentials not even read). */
  auth?: 'required' | 'optional' | 'pending-deletion-ok' | 'none';
  /** `required` (default), `optional` (handler copes with none), or `none` (not resolved). */
  workspace?: 'required' | 'optional' | 'none';
  router?: boolean;
  role?: Role;
  cookieOnly?: boolean;
  /** Counts against the daily bearer cap (the providers, routers, profiles, sessions, replays, inspections and webhooks groups). */
  counted?: boolean;
  body?: B;
  /** The body's size limit when it is not the API's 1 MB (endpoints that take a profile's state). */
  maxBodyBytes?: number;
  query?: Q;
  /** `billing`: errors as `{ ok: false, error: "<code>", message }` with `bad_request` for invalid input (docs/api.md, Errors). */
  errors?: 'standard' | 'billing';
}

export interface ApiContext<B, Q> {
  req: NextRequest;
  requestId: string;
  log: Logger;
  /** null only where the endpoint lets anonymous callers in (auth `optional` or `none`). */
  user: AuthUser | null;
  via: AuthVia | null;
  workspace: ResolvedWorkspace;
  maybeWorkspace: ResolvedWorkspace | null;
  router: ResolvedRouter;
  params: Record<string, string>;
  body: B;
  query: Q;
}

/** A handler result with a status other than 200, extra headers, or (`envelope: false`) sent as it is. */
export class Reply {
  constructor(
    readonly data: unknown,
    readonly status = 200,
    readonly headers: Record<string, string> = {},
    readonly envelope = true,
  ) {}
}
export const created = (data: unknown) => new Reply(data, 201);
/** A JSON document answered without the envelope, to be saved and used as it is (a profile export). */
export const bareJson = (data: unknown, headers: Record<string, string> = {}) => new Reply(data, 200, headers, false);

type RouteContext = { params: Promise<Record<string, string | string[]>> };

export function api<B extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined>(
  options: ApiOptions<B, Q>,
  handler: (ctx: ApiContext<z.infer<B>, z.infer<Q>>) => Promise<unknown>,
) {
  return async (req: NextRequest, route: RouteContext): Promise<Response> => {
    const requestId = randomUUID();
    const log = rootLog.child({ requestId, method: req.method, path: req.nextUrl.pathname });
    const headers: Record<string, string> = { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' };
    try {
      const ctx = await contextOf(req, route, options, { requestId, log, headers });
      const result = await handler(ctx);
      if (result instanceof Response) {
        // A file streamed as it is (a recording's video or chunk) still carries the request id and
        // the daily cap's figures; what the handler set itself wins.
        for (const [name, value] of Object.entries(headers)) if (!result.headers.has(name)) result.headers.set(name, value);
        return result;
      }
      const reply = result instanceof Reply ? result : new Reply(result);
      return NextResponse.json(reply.envelope ? { ok: true, data: reply.data ?? null } : reply.data, {
        status: reply.status,
        headers: { ...headers, ...reply.headers },
      });
    } catch (thrown) {
      return errorResponse(thrown, options, { requestId, log, headers });
    }
  };
}

interface RequestScope {
  requestId: string;
  log: Logger;
  /** The answer's headers so far (the daily cap adds its figures). */
  headers: Record<string, string>;
}

/** Every check of the wrapper, in order, and the handler's context; throws the ApiError that answers. */
async function contextOf<B extends z.ZodType, Q extends z.ZodType>(
  req: NextRequest,
  route: RouteContext,
  options: ApiOptions<B, Q>,
  scope: RequestScope,
): Promise<ApiContext<z.infer<B>, z.infer<Q>>> {
  const auth = await authenticated(req, options);
  // Before the workspace and router lookups, which read X-Router-Id's fallbacks from the query.
  const rawParams = await route.params;
  const params = Object.fromEntries(Object.entries(rawParams ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join('/') : v]));
  const query = req.nextUrl.searchParams;
  refuseNul([...nulIssues(params, 'path'), ...[...query].flatMap(([key, value]) => nulIssues({ [key]: value }, 'query'))]);

  let workspace: ResolvedWorkspace | null = null;
  let router: ResolvedRouter | null = null;
  if (auth && options.workspace !== 'none') {
    workspace = await resolveWorkspace(auth.user, auth.via, req.headers.get('x-workspace-id'));
    if (!workspace && options.workspace !== 'optional') throw notFound('workspace');
  }
  const body = options.body ? await readJsonBody(req, options.maxBodyBytes) : undefined;
  if (body !== undefined) refuseNul(nulIssues(body, 'body'));
  if (options.router && workspace && auth) {
    const requested = req.headers.get('x-router-id') ?? query.get('routerInstanceId') ?? routerIdFromBody(body);
    router = await resolveRouter(workspace, auth.user, auth.via, requested);
  }
  checkAccess(req, options, auth?.via ?? null, workspace);

  const parsedBody = options.body ? parseWith(options.body, body, 'body') : undefined;
  const parsedQuery = options.query ? parseWith(options.query, Object.fromEntries(query), 'query') : undefined;

  if (options.counted && auth?.via === 'bearer' && workspace) {
    const cap = await countBearerCall(workspace.id, workspace);
    Object.assign(scope.headers, cap.headers);
    if (cap.exceeded) throw new ApiError('rate_limited', `the workspace used its ${cap.limit} API calls for today; the count resets at midnight UTC`);
  }

  return {
    req,
    requestId: scope.requestId,
    log: scope.log,
    params,
    user: auth?.user ?? null,
    via: auth?.via ?? null,
    maybeWorkspace: workspace,
    get workspace() {
      if (!workspace) throw notFound('workspace');
      return workspace;
    },
    get router() {
      if (!router) throw notFound('router');
      return router;
    },
    body: parsedBody as z.infer<B>,
    query: parsedQuery as z.infer<Q>,
  };
}

/** The caller, when the endpoint reads credentials; refuses one the endpoint needs and lacks. */
async function authenticated(req: NextRequest, options: ApiOptions<z.ZodType, z.ZodType>) {
  const auth = options.auth === 'none' ? null : await authenticate(req);
  if (!auth && options.auth !== 'optional' && options.auth !== 'none')
    throw new ApiError('unauthenticated', 'sign in, or send "Authorization: Bearer <account token>"');
  if (auth?.user.deletionRequestedAt && options.auth !== 'pending-deletion-ok' && options.auth !== 'optional') {
    throw new ApiError('unauthenticated', 'the account is scheduled for deletion; restore it first');
  }
  return auth;
}

/** The role, bearers on cookie-only endpoints, and cookie mutations from another site. */
function checkAccess(req: NextRequest, options: ApiOptions<z.ZodType, z.ZodType>, via: AuthVia | null, workspace: ResolvedWorkspace | null): void {
  if (options.role && workspace && !roleAtLeast(workspace.role, options.role)) {
    throw new ApiError('forbidden', options.role === 'owner' ? 'only the workspace owner can do this' : 'only the workspace owner or an admin can do this');
  }
  if (options.cookieOnly && via === 'bearer') {
    throw new ApiError('cookie_required', 'this action is only available from a signed-in dashboard session');
  }
  if (via === 'cookie' && !['GET', 'HEAD', 'OPTIONS'].includes(req.method) && !isSameOrigin(req)) {
    throw new ApiError('forbidden', 'cross-site request refused');
  }
}

/** A failure in the contract's envelope (the billing endpoints' own form where declared); anything unforeseen is a logged 500. */
function errorResponse(thrown: unknown, options: ApiOptions<z.ZodType, z.ZodType>, { requestId, log, headers }: RequestScope): Response {
  const error = fromDatabaseError(thrown);
  if (error instanceof ApiError) {
    const body = options.errors === 'billing' ? billingErrorBody(error) : errorBody(error);
    return NextResponse.json(body, { status: error.status, headers: { ...headers, ...error.headers } });
  }
  log.error({ err: error }, 'unhandled error');
  const message = `something went wrong on our side (request ${requestId})`;
  return NextResponse.json(
    options.errors === 'billing' ? { ok: false, error: 'internal_error', message } : { ok: false, error: { code: 'internal_error', message } },
    { status: 500, headers },
  );
}

function routerIdFromBody(body: unknown): string | null {
  if (body && typeof body === 'object' && 'routerInstanceId' in body) {
    const value = (body as { routerInstanceId: unknown }).routerInstanceId;
    return typeof value === 'string' ? value : null;
  }
  return null;
}

function parseWith<T extends z.ZodType>(schema: T, input: unknown, where: string): z.infer<T> {
  const result = schema.safeParse(input === NO_BODY ? undefined : input, clientInput);
  if (!result.success) throw invalidFields(fieldIssues(result.error, where));
  return result.data;
}

function refuseNul(issues: ReturnType<typeof nulIssues>) {
  if (issues.length > 0) throw invalidFields(issues);
}
