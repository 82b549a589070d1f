// What the reference page (/docs/api) shows, read from the document itself: the operations by tag
// with their parameters resolved, who may call them in words, and a curl command for each.
import { answerType, curlAuth, curlCommand } from './curl';
import type { OpenApiDocument } from './document';
import type { JsonSchema } from './schema';

export interface ReferenceParameter {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface ReferenceResponse {
  status: string;
  description: string;
  contentType?: string;
  schema?: JsonSchema;
  example?: unknown;
  /** The error codes this status carries (the API's envelope): the page lists their meanings once. */
  codes: string[];
}

export interface ReferenceError {
  code: string;
  status: string;
  meaning: string;
}

/** "`conflict`: a slug …; `last_router`: deleting …" → each code with its meaning. */
function codesIn(description: string): { code: string; meaning: string }[] {
  return [...description.matchAll(/`([a-z_]+)`: (.*?)(?=; `[a-z_]+`: |$)/g)].map((m) => ({ code: m[1]!, meaning: m[2]! }));
}

/** Every error code of the document with its status and meaning, once each. */
export function referenceErrors(doc: OpenApiDocument): ReferenceError[] {
  const found = new Map<string, ReferenceError>();
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      for (const [status, answer] of Object.entries(op.responses as Record<string, JsonSchema>)) {
        if (Number(status) < 400) continue;
        for (const { code, meaning } of codesIn(String(answer.description))) if (!found.has(code)) found.set(code, { code, status, meaning });
      }
    }
  }
  return [...found.values()].sort((a, b) => Number(a.status) - Number(b.status) || a.code.localeCompare(b.code));
}

export interface ReferenceOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  /** The server it is called on (the web process, or the proxy). */
  server: string;
  onProxy: boolean;
  auth: string;
  role?: string;
  operator: boolean;
  dailyCap: boolean;
  parameters: ReferenceParameter[];
  body?: { schema: JsonSchema; example: unknown; required: boolean };
  responses: ReferenceResponse[];
  curl: string;
  /** What the search box matches: method, path, summary, id and tag, in lower case. */
  search: string;
}

export interface ReferenceTag {
  name: string;
  description: string;
  operations: ReferenceOperation[];
}

const AUTH_LABELS: Record<string, string> = {
  account: 'Account token (bearer) or dashboard session',
  cookie: 'Dashboard session only',
  routerKey: 'Router key (bearer, or ?token=)',
  none: 'None',
};

function authLabel(security: Record<string, string[]>[]): string {
  if (security.some((s) => Object.keys(s).length === 0) && security.length > 1) return 'None needed (a signed-in caller is recognised)';
  return AUTH_LABELS[curlAuth(security)]!;
}

export function referenceTags(doc: OpenApiDocument): ReferenceTag[] {
  const parameters = doc.components.parameters as unknown as Record<string, ReferenceParameter>;
  const resolve = (p: JsonSchema) => (typeof p.$ref === 'string' ? parameters[p.$ref.split('/').pop()!]! : (p as unknown as ReferenceParameter));
  const tags = ((doc.tags ?? []) as { name: string; description: string }[]).map((t) => ({ ...t, operations: [] as ReferenceOperation[] }));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const security = (op.security ?? []) as Record<string, string[]>[];
      const server = ((op.servers as { url: string }[] | undefined) ?? (doc.servers as { url: string }[]))[0]!.url;
      const params = ((op.parameters ?? []) as JsonSchema[]).map(resolve);
      const media = ((op.requestBody as JsonSchema | undefined)?.content as Record<string, { schema: JsonSchema; example: unknown }> | undefined)?.[
        'application/json'
      ];
      const responses = Object.entries(op.responses as Record<string, JsonSchema>).map(([status, answer]): ReferenceResponse => {
        const [contentType, content] = Object.entries((answer.content ?? {}) as Record<string, { schema?: JsonSchema; example?: unknown }>)[0] ?? [];
        const description = String(answer.description);
        return {
          status,
          description,
          contentType,
          schema: content?.schema,
          example: content?.example,
          codes: Number(status) >= 400 ? codesIn(description).map((c) => c.code) : [],
        };
      });
      const curl = curlCommand({
        method,
        path,
        server,
        auth: curlAuth(security),
        requiredQuery: params.filter((p) => p.in === 'query' && p.required).map((p) => p.name),
        body: media?.example,
        answerType: answerType(op.responses as Record<string, JsonSchema>),
        websocket: responses.some((r) => r.status === '101'),
      });
      const tag = tags.find((t) => t.name === (op.tags as string[])[0]);
      tag?.operations.push({
        id: String(op.operationId),
        method,
        path,
        summary: String(op.summary),
        description: String(op.description ?? ''),
        server,
        onProxy: Boolean(op['x-proxy']),
        auth: authLabel(security),
        role: op['x-role'] as string | undefined,
        operator: Boolean(op['x-operator']),
        dailyCap: Boolean(op['x-daily-cap']),
        parameters: params,
        body: media && { schema: media.schema, example: media.example, required: Boolean((op.requestBody as JsonSchema).required) },
        responses,
        curl,
        search: `${method} ${path} ${String(op.summary)} ${String(op.operationId)} ${(op.tags as string[])[0]}`.toLowerCase(),
      });
    }
  }
  return tags.filter((t) => t.operations.length > 0);
}
