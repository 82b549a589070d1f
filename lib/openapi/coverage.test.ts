// The document describes exactly the routes that exist. The control plane's routes are its
// declarations (each app/v1 route file serves its own: lib/api/routes.test.ts); here, every route
// of the proxy's table (lib/data-api/routes.ts, which its dispatcher serves), and nothing else.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DATA_API_ROUTES, PROXY_ROUTES } from '../data-api/routes';
import { endpoints } from '../../proxy/data-api/handle-data-api';
import { buildOpenApiDocument } from './document';
import { OPERATIONS, TAGS } from './operations';

const doc = buildOpenApiDocument({ web: 'http://web.test', proxy: 'http://proxy.test' });
const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

const documented = (onProxy: boolean) =>
  Object.entries(doc.paths)
    .flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => Boolean(op['x-proxy']) === onProxy)
        .map(([method]) => key(method, path)),
    )
    .sort();

test("every route of the proxy's table has an operation on the proxy's server, and every proxy operation a route", () => {
  const routes = Object.entries(PROXY_ROUTES)
    .map(([path, method]) => key(method, path))
    .sort();
  assert.deepEqual(documented(true), routes);
  for (const path of Object.keys(PROXY_ROUTES)) {
    for (const op of Object.values(doc.paths[path]!))
      assert.deepEqual(op.servers, [{ url: 'http://proxy.test', description: 'The proxy (data API, status; connect as ws://)' }], path);
  }
});

test("the proxy's dispatcher serves the data-API table, and the document shows each endpoint's own schema", () => {
  assert.deepEqual(Object.keys(endpoints).sort(), Object.keys(DATA_API_ROUTES).sort());
  for (const [path, route] of Object.entries(DATA_API_ROUTES)) {
    assert.equal(endpoints[path]!.schema, route.schema, path);
    assert.equal(OPERATIONS.find((op) => op.path === path)?.body, route.schema, `${path}: the operation must describe the route's schema`);
  }
});

test('operation ids are unique, every tag is listed, and every path parameter is one of the path', () => {
  const ids = OPERATIONS.map((op) => op.operationId);
  assert.deepEqual(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    [],
  );
  const tags = new Set(TAGS.map((t) => t.name));
  assert.deepEqual(
    OPERATIONS.filter((op) => !tags.has(op.tag)).map((op) => op.operationId),
    [],
  );
  assert.deepEqual(
    TAGS.filter((t) => !OPERATIONS.some((op) => op.tag === t.name)).map((t) => t.name),
    [],
    'a tag without operations',
  );
  for (const [path, item] of Object.entries(doc.paths)) {
    const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
    for (const [method, op] of Object.entries(item)) {
      const declared = ((op.parameters ?? []) as { in?: string; name?: string }[])
        .filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort();
      assert.deepEqual(declared, inPath, key(method, path));
    }
  }
});
