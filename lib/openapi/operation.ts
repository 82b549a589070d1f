// One operation of the API's OpenAPI document, as the files under lib/openapi/operations/ state
// it: the route, who may call it, the zod schemas its handler validates with, and what it answers.
// lib/openapi/document.ts turns these into the document; the error responses follow from the
// wrapper's options (lib/api/handler.ts) that each operation repeats here (auth, scope, role,
// counted), so a reader sees every code a call can answer.
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
 * X-Router-Id or `routerInstanceId`), or `none` (calls about the user, or not signed in).
 */
export type Scope = 'none' | 'workspace' | 'router';

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

/** An operation as written in lib/openapi/operations/ (the function checks its shape, nothing else). */
export const operation = (spec: OperationSpec): OperationSpec => spec;
