import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DASHBOARD_OPERATIONS, OPERATIONS } from '../openapi/operations';
import { CONTROL_PLANE_ROUTES, DASHBOARD_API_ROUTES, allowedMethods, matchRoute } from './routes';

const APP = path.resolve(import.meta.dirname, '..', '..', 'app');
const METHOD = '(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)';

/** The methods a route file exports: `export const GET`, `export async function POST`, `export { x as DELETE }`. */
function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(new RegExp(`^export (?:const|(?:async )?function) ${METHOD}\\b`, 'gm'))) found.add(m[1]!);
  for (const list of source.matchAll(/^export \{([^}]*)\}/gm)) {
    for (const m of list[1]!.matchAll(new RegExp(`\\bas ${METHOD}\\b|^\\s*${METHOD}\\s*$`, 'g'))) found.add(m[1] ?? m[2]!);
  }
  return [...found].sort();
}

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? routeFiles(full) : name === 'route.ts' ? [full] : [];
  });
}

/** `/v1/routers/[id]` → the methods its route.ts exports, for every route file under app/<dir>. */
function routesOnDisk(dir: string): Record<string, string[]> {
  const onDisk: Record<string, string[]> = {};
  for (const file of routeFiles(path.join(APP, dir))) {
    const pattern = `/${path.relative(APP, path.dirname(file)).split(path.sep).join('/')}`;
    if (pattern.includes('[[...')) continue; // the catch-all answers every other path
    onDisk[pattern] = exportedMethods(readFileSync(file, 'utf8'));
  }
  return onDisk;
}

const sorted = (table: Readonly<Record<string, readonly string[]>>) =>
  Object.fromEntries(Object.entries(table).map(([p, methods]) => [p, [...methods].sort()]));

test('the tables list every /v1 and /api route file with exactly the methods it exports', () => {
  assert.deepEqual(
    sorted(CONTROL_PLANE_ROUTES),
    routesOnDisk('v1'),
    'declare each app/v1 route and method in lib/<domain>/endpoints.ts, and serve each declaration from its route file',
  );
  assert.deepEqual(
    sorted(DASHBOARD_API_ROUTES),
    routesOnDisk('api'),
    'declare each app/api route and method in lib/<domain>/endpoints.ts (next-auth and the health check in lib/api/routes.ts)',
  );
});

test('every /v1 and /api route serves its own declaration through endpoint()', () => {
  const declared = [...OPERATIONS, ...DASHBOARD_OPERATIONS];
  const byId = new Map(declared.map((op) => [op.operationId, op]));
  assert.equal(byId.size, declared.length, 'operation ids are unique across the API and the dashboard');
  // The catch-all answers every other path; next-auth and the health check are not endpoints.
  const others = ['[[...', 'api/auth/', 'api/health/'];
  for (const file of [...routeFiles(path.join(APP, 'v1')), ...routeFiles(path.join(APP, 'api'))].filter((f) => !others.some((o) => f.includes(o)))) {
    const pattern = `/${path.relative(APP, path.dirname(file)).split(path.sep).join('/')}`.replace(/\[([^\]]+)\]/g, '{$1}');
    const source = readFileSync(file, 'utf8');
    for (const method of exportedMethods(source)) {
      const served = new RegExp(`^export const ${method} = endpoint\\(\\w+Endpoints\\.(\\w+),`, 'm').exec(source)?.[1];
      assert.ok(served, `${pattern} ${method}: serve it with endpoint(<declaration>, handler)`);
      assert.deepEqual([byId.get(served)?.method, byId.get(served)?.path], [method.toLowerCase(), pattern], `${pattern} ${method} serves ${served}`);
    }
  }
});

test('a literal segment beats a parameter, as in Next: /v1/routers/active is not /v1/routers/[id]', () => {
  const at = (p: string) => matchRoute(p.split('/').slice(1));
  assert.equal(at('/v1/routers/active'), '/v1/routers/active');
  assert.equal(at('/v1/routers/abc'), '/v1/routers/[id]');
  assert.equal(at('/v1/providers/probe'), '/v1/providers/probe');
  assert.equal(at('/v1/providers/probe/test'), '/v1/providers/[slug]/test');
  assert.equal(at('/v1/workspaces/current/members/u1'), '/v1/workspaces/current/members/[userId]');
  assert.equal(at('/v1/screenshot'), null);
  assert.equal(at('/v1'), null);
  assert.equal(at('/v1/routers/a/b/c'), null);
  // A catch-all takes one segment or more, after every other match.
  assert.equal(at('/api/auth/session'), '/api/auth/[...nextauth]');
  assert.equal(at('/api/auth/callback/credentials'), '/api/auth/[...nextauth]');
  assert.equal(at('/api/auth'), null);
  assert.equal(at('/api/sessions/s1/live'), '/api/sessions/[id]/live');
});

test('Allow lists the served methods, HEAD with GET, and OPTIONS', () => {
  assert.deepEqual(allowedMethods('/v1/routers'), ['GET', 'HEAD', 'OPTIONS', 'POST']);
  assert.deepEqual(allowedMethods('/v1/routers/active'), ['OPTIONS', 'POST']);
  assert.deepEqual(allowedMethods('/v1/routers/[id]'), ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH']);
});
