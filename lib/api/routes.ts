// Every /v1 route of the control plane and every /api route of the dashboard, with the methods it
// serves, as app/v1/**/route.ts and app/api/**/route.ts export them (lib/api/routes.test.ts keeps
// them equal). The web server reads it before Next does, to answer methods a route does not serve
// with 405 and an `Allow` header in the API's envelope: Next answers them with an empty 405, a 400
// or (TRACE, which its Request cannot represent) a 500.

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const CONTROL_PLANE_ROUTES: Readonly<Record<string, readonly RouteMethod[]>> = {
  '/v1/access-tokens': ['GET', 'POST'],
  '/v1/access-tokens/[id]': ['DELETE'],
  '/v1/access-tokens/[id]/revoke': ['POST'],
  '/v1/access-tokens/[id]/rotate': ['POST'],
  '/v1/account': ['PATCH', 'DELETE'],
  '/v1/account/password': ['POST'],
  '/v1/account/undelete': ['POST'],
  '/v1/admin/actions': ['GET'],
  '/v1/admin/test-checkouts': ['GET'],
  '/v1/admin/workspaces': ['GET'],
  '/v1/admin/workspaces/[id]': ['PATCH'],
  '/v1/admin/workspaces/[id]/credits': ['POST'],
  '/v1/api-keys': ['GET', 'POST'],
  '/v1/api-keys/[id]': ['GET', 'DELETE'],
  '/v1/api-keys/current/plaintext': ['GET'],
  '/v1/api-keys/rotate': ['POST'],
  '/v1/billing/checkout': ['POST'],
  '/v1/billing/transactions': ['GET'],
  '/v1/billing/transactions/[providerTxnId]': ['GET'],
  '/v1/billing/webhook': ['POST'],
  '/v1/billing/ledger': ['GET'],
  '/v1/billing/summary': ['GET'],
  '/v1/billing/usage': ['GET'],
  '/v1/credits/balance': ['GET'],
  '/v1/inspections': ['GET'],
  '/v1/inspections/[id]': ['GET', 'DELETE'],
  '/v1/inspections/[id]/events': ['GET'],
  '/v1/invitations': ['GET', 'POST'],
  '/v1/invitations/[id]': ['DELETE'],
  '/v1/invitations/[id]/accept': ['POST'],
  '/v1/invitations/[id]/decline': ['POST'],
  '/v1/invitations/[id]/lookup': ['GET'],
  '/v1/invitations/[id]/resend': ['POST'],
  '/v1/mcp-links/current': ['GET', 'DELETE'],
  '/v1/mcp-links/rotate': ['POST'],
  '/v1/me': ['GET'],
  '/v1/openapi.json': ['GET'],
  '/v1/overview': ['GET'],
  '/v1/providers': ['GET', 'POST'],
  '/v1/providers/[slug]': ['GET', 'PATCH', 'DELETE'],
  '/v1/providers/[slug]/plaintext': ['GET'],
  '/v1/providers/[slug]/reprobe': ['POST'],
  '/v1/providers/[slug]/test': ['POST'],
  '/v1/providers/probe': ['POST'],
  '/v1/providers/test-url': ['POST'],
  '/v1/providers/verify-key': ['POST'],
  '/v1/profiles': ['GET', 'POST'],
  '/v1/profiles/[slug]': ['GET', 'PATCH', 'DELETE'],
  '/v1/profiles/[slug]/export': ['GET'],
  '/v1/profiles/[slug]/versions': ['GET'],
  '/v1/profiles/[slug]/versions/[version]/restore': ['POST'],
  '/v1/profiles/import-playwright': ['POST'],
  '/v1/replays': ['GET'],
  '/v1/replays/[id]': ['GET', 'DELETE'],
  '/v1/replays/[id]/chunks/[index]': ['GET'],
  '/v1/replays/[id]/complete': ['GET'],
  '/v1/replays/[id]/export': ['POST'],
  '/v1/replays/[id]/export/download': ['GET'],
  '/v1/replays/[id]/manifest': ['GET'],
  '/v1/routers': ['GET', 'POST'],
  '/v1/routers/[id]': ['GET', 'PATCH', 'DELETE'],
  '/v1/routers/[id]/agent-settings': ['GET', 'PATCH'],
  '/v1/routers/[id]/settings': ['GET', 'PATCH'],
  '/v1/routers/active': ['POST'],
  '/v1/sessions': ['GET'],
  '/v1/sessions/[id]': ['GET'],
  '/v1/sessions/[id]/close': ['POST'],
  '/v1/sessions/[id]/downloads': ['GET'],
  '/v1/sessions/[id]/downloads/[downloadId]': ['GET'],
  '/v1/webhooks': ['GET', 'POST'],
  '/v1/webhooks/[id]': ['GET', 'PATCH', 'DELETE'],
  '/v1/webhooks/[id]/deliveries': ['GET'],
  '/v1/webhooks/[id]/test': ['POST'],
  '/v1/workspaces': ['GET', 'POST'],
  '/v1/workspaces/active': ['POST'],
  '/v1/workspaces/current': ['DELETE'],
  '/v1/workspaces/current/leave': ['POST'],
  '/v1/workspaces/current/members': ['GET'],
  '/v1/workspaces/current/members/[userId]': ['DELETE'],
};

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
