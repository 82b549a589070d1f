// Every /v1 route of the control plane (from its declaration, lib/<domain>/endpoints.ts) and every
// /api route of the dashboard, with the methods it serves, as app/v1/**/route.ts and
// app/api/**/route.ts export them (lib/api/routes.test.ts keeps them equal). The web server reads
// it before Next does, to answer methods a route does not serve with 405 and an `Allow` header in
// the API's envelope: Next answers them with an empty 405, a 400 or (TRACE, which its Request
// cannot represent) a 500.
import { OPERATIONS } from '../openapi/operations';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `/v1/routers/{id}` (a declaration's path) → `/v1/routers/[id]` (its route folder). */
const routePattern = (path: string) => path.replace(/\{([^}]+)\}/g, '[$1]');

/** Every /v1 route and its methods, from the declarations its route files serve. */
export const CONTROL_PLANE_ROUTES: Readonly<Record<string, readonly RouteMethod[]>> = OPERATIONS.filter((op) => !op.proxy).reduce<Record<string, RouteMethod[]>>((table, op) => {
  (table[routePattern(op.path)] ??= []).push(op.method.toUpperCase() as RouteMethod);
  return table;
}, {});

/** The dashboard's own endpoints (sign-up, e-mail links, the live view, next-auth…), outside the public API. */
export const DASHBOARD_API_ROUTES: Readonly<Record<string, readonly RouteMethod[]>> = {
  '/api/outbox': ['GET'],
  '/api/auth/[...nextauth]': ['GET', 'POST'],
  '/api/billing/test-checkout/[id]': ['GET'],
  '/api/billing/test-checkout/[id]/cancel': ['POST'],
  '/api/billing/test-checkout/[id]/confirm': ['POST'],
  '/api/health': ['GET'],
  '/api/operator/claim': ['POST'],
  '/api/password-reset': ['POST'],
  '/api/password-reset/complete': ['POST'],
  '/api/routers/[id]/status': ['GET'],
  '/api/sessions/[id]/live': ['GET'],
  '/api/sign-up': ['POST'],
  '/api/verify-email': ['POST'],
  '/api/verify-email/resend': ['POST'],
};

const ROUTES: Readonly<Record<string, readonly RouteMethod[]>> = { ...CONTROL_PLANE_ROUTES, ...DASHBOARD_API_ROUTES };

/** A pattern's segments: a literal, `param` for `[x]`, `rest` for a catch-all `[...x]` (one segment or more). */
const compiled = Object.keys(ROUTES).map((pattern) => ({
  pattern,
  segments: pattern.split('/').slice(1).map((s) => (s.startsWith('[...') ? ('rest' as const) : s.startsWith('[') ? ('param' as const) : { literal: s })),
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
