// Every /v1 route of the control plane and /api route of the dashboard (from their declarations,
// lib/<domain>/endpoints.ts; next-auth's and the health check by name), with the methods it
// serves, as app/v1/**/route.ts and app/api/**/route.ts export them (lib/api/routes.test.ts keeps
// them equal). The web server reads it before Next does, to answer methods a route does not serve
// with 405 and an `Allow` header in the API's envelope: Next answers them with an empty 405, a 400
// or (TRACE, which its Request cannot represent) a 500.
import type { OperationSpec } from '../openapi/operation';
import { DASHBOARD_OPERATIONS, OPERATIONS } from '../openapi/operations';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `/v1/routers/{id}` (a declaration's path) → `/v1/routers/[id]` (its route folder). */
const routePattern = (path: string) => path.replace(/\{([^}]+)\}/g, '[$1]');

/** Each declared route and its methods. */
function routeTable(operations: readonly OperationSpec[]): Record<string, RouteMethod[]> {
  const table: Record<string, RouteMethod[]> = {};
  for (const op of operations) (table[routePattern(op.path)] ??= []).push(op.method.toUpperCase() as RouteMethod);
  return table;
}

/** Every /v1 route and its methods, from the declarations its route files serve. */
export const CONTROL_PLANE_ROUTES: Readonly<Record<string, readonly RouteMethod[]>> = routeTable(OPERATIONS.filter((op) => !op.proxy));

/**
 * The dashboard's own endpoints (sign-up, e-mail links, the live view…), outside the public API;
 * next-auth's and the health check are not served through endpoint().
 */
export const DASHBOARD_API_ROUTES: Readonly<Record<string, readonly RouteMethod[]>> = {
  ...routeTable(DASHBOARD_OPERATIONS),
  '/api/auth/[...nextauth]': ['GET', 'POST'],
  '/api/health': ['GET'],
};

const ROUTES: Readonly<Record<string, readonly RouteMethod[]>> = { ...CONTROL_PLANE_ROUTES, ...DASHBOARD_API_ROUTES };

/** A pattern's segments: a literal, `param` for `[x]`, `rest` for a catch-all `[...x]` (one segment or more). */
const compiled = Object.keys(ROUTES).map((pattern) => ({
  pattern,
  segments: pattern
    .split('/')
    .slice(1)
    .map((s) => (s.startsWith('[...') ? ('rest' as const) : s.startsWith('[') ? ('param' as const) : { literal: s })),
}));

/**
 * The route a decoded path (`/v1/routers/abc`) falls on, as Next picks it: at each segment a
 * literal beats a parameter, so `/v1/routers/active` is its own route, not `/v1/routers/[id]`.
 * Null for a path no route serves (the catch-all answers it).
 */
export function matchRoute(segments: readonly string[]): string | null {
  let best: { pattern: string; rank: string } | null = null;
  for (const route of compiled) {
    const rest = route.segments.at(-1) === 'rest';
    if (rest ? segments.length < route.segments.length : route.segments.length !== segments.length) continue;
    if (!route.segments.every((s, i) => typeof s === 'string' || s.literal === segments[i])) continue;
    const rank = route.segments.map((s) => (s === 'rest' ? '2' : s === 'param' ? '1' : '0')).join('');
    if (!best || rank < best.rank) best = { pattern: route.pattern, rank };
  }
  return best?.pattern ?? null;
}

/** What `Allow` lists for a route: its methods, HEAD with GET, and OPTIONS (Next answers both itself). */
export function allowedMethods(pattern: string): string[] {
  const served: string[] = [...(ROUTES[pattern] ?? [])];
  if (served.includes('GET')) served.push('HEAD');
  served.push('OPTIONS');
  return served.sort();
}
