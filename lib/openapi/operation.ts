// One endpoint, declared once beside its domain (lib/<domain>/endpoints.ts): the route, who may call
// it, the zod schemas its input is checked with, and what it answers. Its route file serves it
// through `endpoint()` (lib/api/endpoint.ts), which takes auth, scope, role, counting and input
// from here; lib/openapi/document.ts turns the same declarations into the OpenAPI document, with
// the error responses that follow from them, so a reader sees every code a call can answer.
import type { z } from 'zod';
import type { ErrorCode } from '../api/errors';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: `account` an account token or a dashboard session; `cookie` a dashboard session
 * only (a bearer is 403 `cookie_required`); `optional` anyone, signed in or not; `none` no
 * credential is read; `routerKey` a router key (the proxy).
 */
export type Auth = 'account' | 'cookie' | 'optional' | 'none' | 'routerKey';

/**
 * What the wrapper resolves before the handler: `workspace` (X-Workspace-Id), `router` (also
 * X-Router-Id or `routerInstanceId`), `workspace-if-any` (the workspace when the caller has one,
 * else none: the caller's own page), or `none` (calls about the user, or not signed in).
 */
export type Scope = 'none' | 'workspace' | 'router' | 'workspace-if-any';

export interface ResponseSpec {
  description: string;
  /** The answer's `data` (or the whole body when `envelope` is false); none: `data` is null. */
  schema?: z.ZodType;
  /** `{ ok: true, data }` (default), or the body as it is (a file, a profile export, the data API). */
  envelope?: boolean;
  /** Default `application/json`. */
  contentType?: string;
  headers?: Record<string, { description: string; schema?: { type: 'string' | 'integer' } }>;
  example?: unknown;
}

export interface OperationSpec {
  method: HttpMethod;
  /** OpenAPI form: `/v1/routers/{id}` for app/v1/routers/[id]. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  auth: Auth;
  scope?: Scope;
  /** The least role that may call (owner/admin actions); the wrapper's `role`. */
  role?: 'admin' | 'owner';
  /** Counted against the daily bearer cap (the wrapper's `counted`). */
  counted?: boolean;
  /** The instance operator only (403 `forbidden` for anyone else). */
  operator?: boolean;
  /** Also answers while the account is scheduled for deletion (others answer 401). */
  whileDeletionPending?: boolean;
  /** The body's size limit when it is not the API's 1 MB (endpoints that take a profile's state). */
  maxBodyBytes?: number;
  /** Served by the proxy, not the web process. */
  proxy?: boolean;
  /** Path parameters' descriptions; every `{name}` of the path is a parameter whether named here or not. */
  params?: Record<string, string>;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body may be left out altogether (every field optional). */
  bodyOptional?: boolean;
  bodyExample?: unknown;
  responses: Record<number, ResponseSpec>;
  /** Error codes beyond those that follow from auth, scope, role, input and counting. */
  errors?: readonly ErrorCode[];
  /** The error body's shape: the API's envelope, the billing endpoints' (a bare code), or none added (the proxy's). */
  errorStyle?: 'standard' | 'billing' | 'none';
}

/**
 * An endpoint as declared in lib/<domain>/endpoints.ts: the function checks its shape and keeps its
 * literal types (the path's parameters and the schemas type the handler's context).
 */
export const operation = <const S extends OperationSpec>(spec: S): S => spec;

type ById<T extends readonly OperationSpec[]> = { readonly [O in T[number] as O['operationId']]: O };

/** A file's operations by id, for the route files that serve them (`endpoint(webhookEndpoints.getWebhook, …)`). */
export function byId<const T extends readonly OperationSpec[]>(operations: T): ById<T> {
  return Object.fromEntries(operations.map((op) => [op.operationId, op])) as ById<T>;
}
