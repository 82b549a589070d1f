// The OpenAPI 3.1 document of the control plane (the web process, /v1) and the proxy's endpoints
// (connect, status, data API), built from the endpoints' declarations (lib/openapi/operations.ts)
// and the zod schemas the handlers validate with. Served at GET /v1/openapi.json and rendered at
// /docs/api.
import { errorStatus, type ErrorCode } from '../api/errors';
import { exampleOf } from './examples';
import type { Auth, OperationSpec, ResponseSpec } from './operation';
import { OPERATIONS, TAGS } from './operations';
import { apiError, billingError, ERROR_MEANINGS } from './resources/errors';
import { SchemaSet, type JsonSchema } from './schema';

export interface Servers {
  /** The web process: the control plane, e.g. http://localhost:3000. */
  web: string;
  /** The proxy, as HTTP: the data API, status and (as ws://) connect, e.g. http://localhost:9500. */
  proxy: string;
}

export type OpenApiDocument = JsonSchema & {
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema>; parameters: Record<string, JsonSchema> };
};

const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  account: [{ accountToken: [] }, { dashboardSession: [] }],
  cookie: [{ dashboardSession: [] }],
  optional: [{}, { accountToken: [] }, { dashboardSession: [] }],
  none: [],
  routerKey: [{ routerKey: [] }, { routerKeyQuery: [] }],
};

const SECURITY_SCHEMES = {
  accountToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'acct_…',
    description:
      "An account token (`acct_…`), made on the Account page of the dashboard. It acts with its user's role in every workspace the user belongs to. A router key here is just a bad token (401).",
  },
  dashboardSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'next-auth.session-token',
    description:
      "A signed-in dashboard session (`__Secure-next-auth.session-token` over HTTPS). Calls that change something must come from the dashboard's own origin.",
  },
  routerKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'rkey_…',
    description: 'A router key (`rkey_…`): it decides the workspace and the router. Only on the proxy; an account token does not work there.',
  },
  routerKeyQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'The router key in the query (`?token=rkey_…`), in place of the header; a bearer header, when present, is the one used.',
  },
};

const PARAMETERS = {
  workspaceId: {
    name: 'X-Workspace-Id',
    in: 'header',
    required: false,
    schema: { type: 'string' },
    description:
      "The workspace to act in (403 `not_a_member` if the caller is not in it). Without it: a dashboard session's active workspace, else the caller's oldest membership.",
  },
  routerId: {
    name: 'X-Router-Id',
    in: 'header',
    required: false,
    schema: { type: 'string' },
    description:
      "The router to act on (also `routerInstanceId` in the query or body). Without it: a dashboard session's active router, else the workspace's first.",
  },
};

const RATE_HEADERS = {
  'X-RateLimit-Limit': { description: "bearer calls only: the workspace's daily cap", schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'bearer calls only: calls left today', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'bearer calls only: when the count resets (Unix seconds, midnight UTC)', schema: { type: 'integer' } },
};

let cached: { paths: OpenApiDocument['paths']; schemas: Record<string, JsonSchema> } | null = null;

/** The document for an install whose web process and proxy are at `servers`. */
export function buildOpenApiDocument(servers: Servers): OpenApiDocument {
  cached ??= describeOperations(OPERATIONS);
  const proxyServer = [{ url: servers.proxy, description: 'The proxy (data API, status; connect as ws://)' }];
  const paths = Object.fromEntries(
    Object.entries(cached.paths).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item).map(([method, op]) => [method, op['x-proxy'] ? { ...op, servers: proxyServer } : op])),
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Browser Router API',
      version: '1',
      description:
        "The control-plane API under `/v1` on the web port, authenticated with an account token, and the proxy's endpoints (connect, status, data API) on the proxy port, authenticated with a router key. " +
        'A control-plane success is `{ ok: true, data }`; a failure `{ ok: false, error: { code, message, details? } }` (the billing endpoints: `error` is a bare code).',
    },
    servers: [{ url: servers.web, description: 'The web process (control plane)' }],
    tags: TAGS.map((t) => ({ ...t })),
    paths,
    components: { schemas: cached.schemas, securitySchemes: SECURITY_SCHEMES, parameters: PARAMETERS },
  } as OpenApiDocument;
}

function describeOperations(operations: readonly OperationSpec[]) {
  const set = new SchemaSet();
  set.convert(apiError);
  set.convert(billingError);
  const paths: OpenApiDocument['paths'] = {};
  for (const op of operations) {
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`${op.method.toUpperCase()} ${op.path} is described twice`);
    item[op.method] = describe(op, set);
  }
  const schemas = Object.fromEntries(Object.entries(set.components).sort(([a], [b]) => a.localeCompare(b)));
  return { paths, schemas };
}

function describe(op: OperationSpec, set: SchemaSet): JsonSchema {
  const scope = op.scope ?? (op.proxy ? 'none' : 'workspace');
  const pathParams = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const parameters: JsonSchema[] = pathParams.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    description: op.params?.[name] ?? name,
  }));
  if (scope !== 'none') parameters.push({ $ref: '#/components/parameters/workspaceId' });
  if (scope === 'router') parameters.push({ $ref: '#/components/parameters/routerId' });
  if (op.query) parameters.push(...queryParameters(set.convert(op.query)));
  if (op.auth === 'routerKey')
    parameters.push({ name: 'token', in: 'query', required: false, schema: { type: 'string' }, description: 'the router key, unless sent as a bearer header' });
  const unknownParam = Object.keys(op.params ?? {}).find((name) => !pathParams.includes(name));
  if (unknownParam) throw new Error(`${op.operationId}: "${unknownParam}" is not a parameter of ${op.path}`);

  const described: JsonSchema = { operationId: op.operationId, tags: [op.tag], summary: op.summary };
  const description = [op.description, ...notes(op)].filter(Boolean).join('\n\n');
  if (description) described.description = description;
  described.security = SECURITY[op.auth];
  if (parameters.length > 0) described.parameters = parameters;
  if (op.body) {
    const schema = set.convert(op.body);
    described.requestBody = {
      required: !op.bodyOptional,
      content: { 'application/json': { schema, example: op.bodyExample ?? exampleOf(schema, set.components) } },
    };
  }
  described.responses = responses(op, set, pathParams.length > 0);
  if (op.proxy) described['x-proxy'] = true;
  if (op.role) described['x-role'] = op.role;
  if (op.counted) described['x-daily-cap'] = true;
  if (op.operator) described['x-operator'] = true;
  return described;
}

/** Who may call, in words: the same facts the extensions carry, for readers of the plain document. */
function notes(op: OperationSpec): string[] {
  const out: string[] = [];
  if (op.operator) out.push('The instance operator only.');
  if (op.role) out.push(op.role === 'owner' ? 'The workspace owner only.' : 'Owner or admin.');
  if (op.auth === 'cookie') out.push('A signed-in dashboard session only: a bearer is 403 `cookie_required`.');
  if (op.counted) out.push("Bearer calls count against the workspace's daily cap.");
  return out;
}

function queryParameters(schema: JsonSchema): JsonSchema[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, inner]) => {
    const { description, ...rest } = inner;
    return { name, in: 'query', required: required.has(name), schema: rest, ...(description ? { description } : {}) };
  });
}

function responses(op: OperationSpec, set: SchemaSet, hasPathParams: boolean): JsonSchema {
  const out: Record<string, JsonSchema> = {};
  for (const [status, spec] of Object.entries(op.responses)) out[status] = response(op, spec, set);
  const style = op.errorStyle ?? 'standard';
  if (style !== 'none') {
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of errorCodes(op, hasPathParams)) byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
    for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
      const first = codes[0]!;
      const example =
        style === 'billing'
          ? { ok: false, error: first === 'validation_error' ? 'bad_request' : first, message: ERROR_MEANINGS[first] }
          : { ok: false, error: { code: first, message: ERROR_MEANINGS[first] } };
      out[status] = {
        description: codes
          .map((code) => `\`${style === 'billing' && code === 'validation_error' ? 'bad_request' : code}\`: ${ERROR_MEANINGS[code]}`)
          .join('; '),
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${style === 'billing' ? 'BillingError' : 'Error'}` }, example } },
      };
    }
  }
  if (op.auth === 'routerKey') {
    const text = (description: string) => ({ description, content: { 'text/plain': { schema: { type: 'string' } } } });
    out['401'] = text('The router key is missing, wrong or revoked (plain text)');
    const throttled = 'Too many failed key attempts from this address (plain text, with `Retry-After`)';
    const existing = out['429'];
    if (existing) {
      existing.description = `${String(existing.description)}; or: ${throttled.charAt(0).toLowerCase()}${throttled.slice(1)}`;
      existing.content = { ...(existing.content as JsonSchema), 'text/plain': { schema: { type: 'string' } } };
    } else out['429'] = text(throttled);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => Number(a) - Number(b)));
}

function response(op: OperationSpec, spec: ResponseSpec, set: SchemaSet): JsonSchema {
  const described: JsonSchema = { description: spec.description };
  const headers: Record<string, JsonSchema> = {};
  for (const [name, header] of Object.entries(spec.headers ?? {}))
    headers[name] = { description: header.description, schema: header.schema ?? { type: 'string' } };
  if (op.counted) Object.assign(headers, RATE_HEADERS);
  if (Object.keys(headers).length > 0) described.headers = headers;
  const envelope = spec.envelope ?? true;
  if (!spec.schema && !envelope) return described;
  const data = spec.schema ? set.convert(spec.schema) : { type: 'null' };
  const schema = envelope ? { type: 'object', properties: { ok: { const: true }, data }, required: ['ok', 'data'] } : data;
  const contentType = spec.contentType ?? 'application/json';
  const media: JsonSchema = { schema };
  if (contentType === 'application/json')
    media.example = spec.example !== undefined ? (envelope ? { ok: true, data: spec.example } : spec.example) : exampleOf(schema, set.components);
  described.content = { [contentType]: media };
  return described;
}

/** The codes a call can answer, from the wrapper's options it declares (lib/api/handler.ts) and its own. */
function errorCodes(op: OperationSpec, hasPathParams: boolean): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  const signedIn = op.auth === 'account' || op.auth === 'cookie';
  if (op.body || op.query || hasPathParams) codes.add('validation_error');
  if (signedIn) codes.add('unauthenticated');
  if (op.auth === 'cookie') codes.add('cookie_required');
  const scope = op.scope ?? 'workspace';
  if (scope !== 'none') codes.add('not_a_member');
  if (scope === 'workspace' || scope === 'router') codes.add('not_found');
  if (op.role || op.operator || (signedIn && op.method !== 'get')) codes.add('forbidden');
  if (hasPathParams) codes.add('not_found');
  if (op.body) codes.add('payload_too_large').add('unsupported_media_type');
  if (op.counted) codes.add('rate_limited');
  for (const code of op.errors ?? []) codes.add(code);
  codes.add('internal_error');
  return [...codes];
}
