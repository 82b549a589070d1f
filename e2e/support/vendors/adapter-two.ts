// Stand-in for adapter-two's vendor (Browser Use's browser sessions API, docs/vendors.md): the key
// in X-Browser-Use-API-Key, GET /billing/account, POST/GET /browsers, PATCH /browsers/{id}
// { action: "stop" }. Each browser is a real local Chromium whose cdpUrl is its http base (as the
// vendor's is), so the adapter must resolve it. Inspection: see stand-in.ts.
import { startStandIn, type StandInSession, type VendorStandIn } from './stand-in';

const view = (session: StandInSession) => {
  const minutes = (session.options.timeout as number | undefined) ?? 60;
  return {
    id: session.id,
    status: session.stoppedAt ? 'stopped' : 'active',
    liveUrl: null,
    cdpUrl: session.browser?.httpUrl ?? null,
    timeoutAt: new Date(Date.parse(session.createdAt) + minutes * 60_000).toISOString(),
    startedAt: session.createdAt,
    finishedAt: session.stoppedAt,
    proxyCountryCode: session.options.proxyCountryCode ?? null,
  };
};

export function startAdapterTwoVendor(): Promise<VendorStandIn> {
  return startStandIn({
    readKey: (req) => (req.headers['x-browser-use-api-key'] as string | undefined) ?? null,
    // The account endpoint answers 404 for a key without a project; the rest 401.
    rejectKey: (ex) =>
      ex.path === '/billing/account' ? ex.json(404, { detail: 'Project for a given API key not found!' }) : ex.json(401, { detail: 'Invalid API key' }),
    async route(ex, state) {
      const method = ex.req.method;
      if (method === 'GET' && ex.path === '/billing/account') {
        return ex.json(200, { name: 'stand-in project', monthlyCreditsBalanceUsd: 10, additionalCreditsBalanceUsd: 0, totalCreditsBalanceUsd: 10 });
      }
      if (method === 'GET' && ex.path === '/browsers') {
        const items = [...state.sessions.values()].filter((s) => s.apiKey === ex.apiKey).map(view);
        return ex.json(200, { items, totalItems: items.length, pageNumber: 1, pageSize: items.length });
      }
      if (method === 'POST' && ex.path === '/browsers') {
        const body = (ex.body ?? {}) as Record<string, unknown>;
        if (body.timeout !== undefined && (!Number.isInteger(body.timeout) || (body.timeout as number) < 1 || (body.timeout as number) > 240)) {
          return ex.json(422, { detail: 'timeout must be 1 to 240 minutes' });
        }
        if (body.proxyCountryCode !== undefined && body.proxyCountryCode !== null && !/^[a-z]{2}$/.test(String(body.proxyCountryCode))) {
          return ex.json(422, { detail: 'proxyCountryCode must be a lowercase country code or null' });
        }
        const session = await state.startSession(ex.apiKey!, body);
        return ex.json(201, view(session));
      }
      const one = /^\/browsers\/([^/]+)$/.exec(ex.path);
      const session = one ? ex.session(decodeURIComponent(one[1]!)) : undefined;
      if (one && !session) return ex.json(404, { detail: 'Browser session not found' });
      if (method === 'GET' && session) return ex.json(200, view(session));
      if (method === 'PATCH' && session) {
        if ((ex.body as { action?: unknown } | undefined)?.action !== 'stop') return ex.json(422, { detail: 'action must be "stop"' });
        await state.stopSession(session);
        return ex.json(200, view(session));
      }
      return ex.json(404, { detail: `no route ${method} ${ex.path}` });
    },
  });
}
