// What an endpoint's declaration (lib/<domain>/endpoints.ts) means for the wrapper that serves it
// (lib/api/endpoint.ts): the wrapper's options, and the handler's context typed from it: the
// path's parameters, the parsed body and query, the caller (null only where anyone may call), the
// workspace and router where they are resolved.
import type { NextRequest } from 'next/server';
import type { z } from 'zod';
import type { Logger } from '../log';
import type { OperationSpec } from '../openapi/operation';
import type { AuthUser, AuthVia, ResolvedRouter, ResolvedWorkspace } from './context';
import type { ApiOptions } from './handler';

/** `'/v1/routers/{id}/keys/{keyId}'` → `'id' | 'keyId'`. */
type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParams<Rest> : never;
type Parsed<S> = S extends z.ZodType ? z.infer<S> : undefined;

type Caller<Op extends OperationSpec> = Op['auth'] extends 'account' | 'cookie'
  ? { user: AuthUser; via: AuthVia }
  : Op['auth'] extends 'optional'
    ? { user: AuthUser | null; via: AuthVia | null }
    : unknown;
type Scoped<Op extends OperationSpec> = Op['scope'] extends 'none'
  ? unknown
  : Op['scope'] extends 'workspace-if-any'
    ? { workspace: ResolvedWorkspace | null }
    : Op['scope'] extends 'router'
      ? { workspace: ResolvedWorkspace; router: ResolvedRouter }
      : { workspace: ResolvedWorkspace };

export type EndpointContext<Op extends OperationSpec> = {
  req: NextRequest;
  requestId: string;
  log: Logger;
  params: { [Name in PathParams<Op['path']>]: string };
  body: Parsed<Op['body']>;
  query: Parsed<Op['query']>;
} & Caller<Op> &
  Scoped<Op>;

/** The wrapper's options (lib/api/handler.ts) that a declaration stands for. */
export function optionsOf(op: OperationSpec): ApiOptions<z.ZodType, z.ZodType> {
  if (op.proxy || op.auth === 'routerKey') throw new Error(`${op.operationId} is served by the proxy, not by a route file`);
  const scope = op.scope ?? 'workspace';
  return {
    auth: op.auth === 'none' ? 'none' : op.auth === 'optional' ? 'optional' : op.whileDeletionPending ? 'pending-deletion-ok' : 'required',
    workspace: scope === 'none' ? 'none' : scope === 'workspace-if-any' ? 'optional' : 'required',
    router: scope === 'router',
    role: op.role,
    cookieOnly: op.auth === 'cookie',
    counted: op.counted,
    body: op.body,
    maxBodyBytes: op.maxBodyBytes,
    query: op.query,
    errors: op.errorStyle === 'billing' ? 'billing' : 'standard',
  };
}
