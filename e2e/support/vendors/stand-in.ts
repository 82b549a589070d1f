// What both vendor stand-ins share: a real HTTP server, the keys the tests registered, the
// sessions (each a real local Chromium), and an inspection window for the tests under /__test:
//   POST /__test/keys { apiKey, mode?: 'valid' | 'outage' }  accept this key ('outage': drop its connections)
//   GET  /__test/sessions?apiKey=…                            sessions created with the key
//   GET  /__test/calls?apiKey=…                               every API call made with the key
// Keys are per test, so tests running side by side never see each other's state.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { launchChromium, type Chromium } from '../chromium';

export interface StandInSession {
  id: string;
  apiKey: string;
  options: Record<string, unknown>;
  createdAt: string;
  stoppedAt: string | null;
  browser: Chromium | null;
}

export interface StandInCall {
  method: string;
  path: string;
  body: unknown;
}

export interface Exchange {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  path: string;
  query: URLSearchParams;
  body: unknown;
  apiKey: string | null;
  session(id: string): StandInSession | undefined;
  json(status: number, body?: unknown): void;
}

export interface VendorStandIn {
  url: string;
  stop(): Promise<void>;
}

export interface StandInDefinition {
  /** Where the key travels, and how to read it. */
  readKey(req: http.IncomingMessage): string | null;
  /** Answer for an unknown key on this path. */
  rejectKey(exchange: Exchange): void;
  route(exchange: Exchange, state: StandInState): Promise<void> | void;
}

export class StandInState {
  readonly keys = new Map<string, 'valid' | 'outage'>();
  readonly sessions = new Map<string, StandInSession>();
  readonly calls = new Map<string, StandInCall[]>();

  async startSession(apiKey: string, options: Record<string, unknown>): Promise<StandInSession> {
    const browser = await launchChromium();
    const session: StandInSession = { id: randomUUID(), apiKey, options, createdAt: new Date().toISOString(), stoppedAt: null, browser };
    this.sessions.set(session.id, session);
    return session;
  }

  async stopSession(session: StandInSession): Promise<void> {
    session.stoppedAt ??= new Date().toISOString();
    const browser = session.browser;
    session.browser = null;
    await browser?.stop();
  }
}

export async function startStandIn(definition: StandInDefinition): Promise<VendorStandIn> {
  const state = new StandInState();
  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: error.message }));
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const text = await readBody(req);
    let body: unknown = undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const json = (status: number, payload?: unknown) => {
      if (payload === undefined) res.writeHead(status).end();
      else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    };

    if (url.pathname.startsWith('/__test/')) return inspect(url, req.method ?? 'GET', body, json);

    const apiKey = definition.readKey(req);
    const exchange: Exchange = {
      req,
      res,
      path: url.pathname,
      query: url.searchParams,
      body,
      apiKey,
      json,
      session: (id) => {
        const session = state.sessions.get(id);
        return session && session.apiKey === apiKey ? session : undefined;
      },
    };
    if (apiKey && state.keys.has(apiKey)) {
      const calls = state.calls.get(apiKey) ?? [];
      calls.push({ method: req.method ?? 'GET', path: url.pathname, body });
      state.calls.set(apiKey, calls);
    }
    const mode = apiKey ? state.keys.get(apiKey) : undefined;
    if (mode === 'outage') {
      req.socket.destroy(); // the vendor is unreachable for this key
      return;
    }
    if (!mode) return definition.rejectKey(exchange);
    await definition.route(exchange, state);
  }

  function inspect(url: URL, method: string, body: unknown, json: (status: number, payload?: unknown) => void) {
    const apiKey = url.searchParams.get('apiKey') ?? '';
    if (method === 'POST' && url.pathname === '/__test/keys') {
      const { apiKey: key, mode = 'valid' } = body as { apiKey: string; mode?: 'valid' | 'outage' };
      state.keys.set(key, mode);
      return json(200, { apiKey: key, mode });
    }
    if (method === 'GET' && url.pathname === '/__test/sessions') {
      return json(
        200,
        [...state.sessions.values()].filter((s) => s.apiKey === apiKey).map(({ browser, apiKey: _key, ...rest }) => ({ ...rest, running: browser !== null })),
      );
    }
    if (method === 'GET' && url.pathname === '/__test/calls') return json(200, state.calls.get(apiKey) ?? []);
    return json(404, { message: 'no such inspection endpoint' });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await Promise.all([...state.sessions.values()].map((session) => state.stopSession(session)));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Test side: register a key with a stand-in and read what it saw. */
export const standInClient = (baseUrl: string) => ({
  async registerKey(apiKey: string, mode: 'valid' | 'outage' = 'valid') {
    const response = await fetch(`${baseUrl}/__test/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey, mode }),
    });
    if (!response.ok) throw new Error(`stand-in refused the key registration: ${response.status}`);
  },
  async sessions(apiKey: string): Promise<(Omit<StandInSession, 'browser' | 'apiKey'> & { running: boolean })[]> {
    return (await fetch(`${baseUrl}/__test/sessions?apiKey=${encodeURIComponent(apiKey)}`)).json() as never;
  },
  async calls(apiKey: string): Promise<StandInCall[]> {
    return (await fetch(`${baseUrl}/__test/calls?apiKey=${encodeURIComponent(apiKey)}`)).json() as never;
  },
});
