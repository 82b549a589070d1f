// Stand-in for adapter-one's vendor (Kernel's browsers API, docs/vendors.md): bearer keys,
// POST/GET/DELETE /browsers, each browser a real local Chromium. Inspection: see stand-in.ts.
import { startStandIn, type StandInSession, type VendorStandIn } from './stand-in';

const REGIONS = ['us-east', 'eu-west', 'ap-southeast'];

const view = (session: StandInSession) => ({
  session_id: session.id,
  cdp_ws_url: session.browser?.wsUrl ?? null,
  browser_live_view_url: null,
  created_at: session.createdAt,
  headless: false,
  stealth: session.options.stealth ?? false,
  timeout_seconds: session.options.timeout_seconds ?? 60,
  region: session.options.region ?? null,
});

export function startAdapterOneVendor(): Promise<VendorStandIn> {
  return startStandIn({
    readKey: (req) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null,
    rejectKey: (ex) => ex.json(401, { code: 'unauthorized', message: 'invalid API key' }),
    async route(ex, state) {
      const method = ex.req.method;
      const one = /^\/browsers\/([^/]+)$/.exec(ex.path);
      if (method === 'GET' && ex.path === '/browsers') {
        return ex.json(200, [...state.sessions.values()].filter((s) => s.apiKey === ex.apiKey && !s.stoppedAt).map(view));
      }
      if (method === 'POST' && ex.path === '/browsers') {
        const body = (ex.body ?? {}) as Record<string, unknown>;
        const timeout = body.timeout_seconds;
        if (timeout !== undefined && (!Number.isInteger(timeout) || (timeout as number) < 10 || (timeout as number) > 259_200)) {
          return ex.json(400, { code: 'bad_request', message: 'timeout_seconds must be 10 to 259200' });
        }
        if (body.stealth !== undefined && typeof body.stealth !== 'boolean') return ex.json(400, { code: 'bad_request', message: 'stealth must be a boolean' });
        if (body.region !== undefined && !REGIONS.includes(body.region as string)) return ex.json(400, { code: 'bad_request', message: 'unknown region' });
        const session = await state.startSession(ex.apiKey!, body);
        return ex.json(200, view(session));
      }
      const session = one ? ex.session(decodeURIComponent(one[1]!)) : undefined;
      if (one && (!session || session.stoppedAt)) return ex.json(404, { code: 'not_found', message: 'browser not found' });
      if (method === 'GET' && session) return ex.json(200, view(session));
      if (method === 'DELETE' && session) {
        await state.stopSession(session);
        return ex.json(204);
      }
      return ex.json(404, { code: 'not_found', message: `no route ${method} ${ex.path}` });
    },
  });
}
