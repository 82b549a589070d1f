// The document is well formed: OpenAPI 3.1 with every Schema Object valid JSON Schema 2020-12,
// every reference resolvable, and every example (bodies, answers, components) matching its own
// schema, answers strictly (no field the schema does not name). The whole document against the
// OpenAPI 3.1 schema itself: openapi-schema.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import { buildOpenApiDocument } from './document';
import { COMPONENT_REF, type JsonSchema } from './schema';
import { documentValidator } from './testing';

const doc = buildOpenApiDocument({ web: 'http://web.test', proxy: 'http://proxy.test' });
const validator = documentValidator(doc);

type Op = JsonSchema & { responses: Record<string, JsonSchema> };
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op: op as Op })),
);

/** Every value under a key named `schema` (Schema Objects of parameters, bodies, answers). */
function schemasIn(value: unknown, found: JsonSchema[] = []): JsonSchema[] {
  if (Array.isArray(value)) value.forEach((v) => schemasIn(v, found));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'schema' && inner && typeof inner === 'object') found.push(inner as JsonSchema);
      schemasIn(inner, found);
    }
  }
  return found;
}

test('an OpenAPI 3.1 document of the web process with the proxy on its own server', () => {
  assert.equal(doc.openapi, '3.1.0');
  assert.deepEqual(doc.servers, [{ url: 'http://web.test', description: 'The web process (control plane)' }]);
  assert.ok(operations.length > 90, `${operations.length} operations`);
  for (const { name, op } of operations) {
    assert.ok(typeof op.summary === 'string' && op.summary.length > 0, name);
    assert.ok(Array.isArray(op.security), `${name}: security`);
    assert.ok(
      Object.keys(op.responses).some((s) => Number(s) < 300),
      `${name}: a success answer`,
    );
  }
});

test('every Schema Object is valid JSON Schema 2020-12', () => {
  const ajv = new Ajv2020({ strict: false });
  const all = [...schemasIn(doc.paths), ...Object.values(doc.components.schemas)];
  for (const schema of all) assert.ok(ajv.validateSchema(schema), `${JSON.stringify(schema).slice(0, 200)}: ${ajv.errorsText()}`);
});

test('every reference resolves', () => {
  const refs = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (k === '$ref' && typeof v === 'string') refs.add(v);
        else walk(v);
      }
    }
  };
  walk(doc);
  for (const ref of refs) {
    const target = ref
      .split('/')
      .slice(1)
      .reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], doc);
    assert.ok(target, `${ref} resolves`);
  }
  assert.ok([...refs].some((r) => r.startsWith(COMPONENT_REF)));
});

test('every request example matches its body schema', () => {
  let checked = 0;
  for (const { name, op } of operations) {
    const media = (op.requestBody as { content?: Record<string, { schema: JsonSchema; example: unknown }> } | undefined)?.content?.['application/json'];
    if (!media) continue;
    assert.equal(validator.check(media.schema, media.example), null, name);
    checked++;
  }
  assert.ok(checked > 25, `${checked} bodies`);
});

test('every answer example matches its schema, naming no field the schema does not', () => {
  let checked = 0;
  for (const { name, op } of operations) {
    for (const [status, answer] of Object.entries(op.responses)) {
      const media = (answer.content as Record<string, { schema: JsonSchema; example?: unknown }> | undefined)?.['application/json'];
      if (!media || media.example === undefined) continue;
      assert.equal(validator.check(media.schema, media.example, { strict: true }), null, `${name} ${status}`);
      checked++;
    }
  }
  assert.ok(checked > 300, `${checked} answers`);
});

test("every component's own example matches it", () => {
  for (const [id, schema] of Object.entries(doc.components.schemas)) {
    for (const example of (schema.examples ?? []) as unknown[])
      assert.equal(validator.check({ $ref: COMPONENT_REF + id }, example, { strict: true }), null, id);
  }
});

test('a strict check refuses a field the document does not name', () => {
  const me = (doc.paths['/v1/me']!.get!.responses as Record<string, JsonSchema>)['200']!;
  const example = (me.content as Record<string, { example: { data: Record<string, unknown> } }>)['application/json']!.example;
  assert.equal(validator.response('get', '/v1/me', 200, example), null);
  assert.match(validator.response('get', '/v1/me', 200, { ...example, data: { ...example.data, secret: 1 } }) ?? '', /additional properties/);
  assert.match(validator.response('get', '/v1/me', 200, { ok: true, data: { ...example.data, isAdmin: 'no' } }) ?? '', /boolean/);
});
