// Opening connections to the proxy the way clients do, and reading its refusals.
import { Agent, fetch as undiciFetch } from 'undici';
import WebSocket from 'ws';

export const PROXY = (process.env.TEST_PROXY_URL ?? 'http://localhost:9500').replace(/^http/, 'ws');
/** The test stack's local pool: its status and sessions (http) and its address as a provider (ws). */
export const POOL_HTTP = process.env.TEST_POOL_URL ?? 'http://127.0.0.1:9600';
export const POOL_WS = `${POOL_HTTP.replace(/^http/, 'ws')}/`;

export const connectUrl = (key: string, query: Record<string, string> = {}) => `${PROXY}/v1/connect?${new URLSearchParams({ token: key, ...query })}`;

export interface Opened {
  ws: WebSocket;
  sessionId: string;
  provider: string;
  closed: Promise<{ code: number; reason: string }>;
}

export interface Refused {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

// Each connection comes from its own loopback address (all of 127/8 reaches the proxy), so the
// per-IP failed-attempt throttle of one test never leaks into another.
export const randomLoopback = () => `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

/**
 * `fetch` from a loopback address of its own: a request that counts as a failed key (a 401 on
 * purpose) must not push the address every other test shares (127.0.0.1) toward the throttle.
 */
export async function fetchFromOwnAddress(url: string, init: RequestInit = {}): Promise<Response> {
  const dispatcher = new Agent({ localAddress: randomLoopback() });
  try {
    const response = await undiciFetch(url, { ...(init as object), dispatcher });
    const body = await response.arrayBuffer();
    return new Response(response.status === 204 || response.status === 304 ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers as unknown as Headers,
    });
  } finally {
    await dispatcher.close();
  }
}

/** Opens a WebSocket; resolves with the session or with the plain-text refusal. */
export function open(url: string, headers: Record<string, string> = {}, localAddress = randomLoopback()): Promise<Opened | Refused> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers, perMessageDeflate: false, localAddress });
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.once('close', (code, reason) => r({ code, reason: reason.toString() })));
    ws.once('upgrade', (res) => {
      resolve({ ws, sessionId: String(res.headers['x-session-id']), provider: String(res.headers['x-provider']), closed });
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    ws.once('error', (error) => reject(error));
  });
}

export function isOpened(r: Opened | Refused): r is Opened {
  return 'ws' in r;
}

export async function expectOpened(url: string, headers: Record<string, string> = {}): Promise<Opened> {
  const r = await open(url, headers);
  if (!isOpened(r)) throw new Error(`expected a session, got ${r.status}: ${r.body}`);
  await new Promise<void>((resolve) => (r.ws.readyState === WebSocket.OPEN ? resolve() : r.ws.once('open', () => resolve())));
  return r;
}

export async function expectRefused(url: string, status: number, headers: Record<string, string> = {}): Promise<Refused> {
  const r = await open(url, headers);
  if (isOpened(r)) {
    r.ws.terminate();
    throw new Error(`expected ${status}, got a session on ${r.provider}`);
  }
  return expectStatus(r, status);
}

/**
 * For a change that reaches the proxy a moment later (a router edit): the refusal once it has,
 * null while the proxy still opens a session (closed again at once). Poll it with `eventually`.
 */
export async function refusedYet(url: string, status: number): Promise<Refused | null> {
  const r = await open(url);
  if (!isOpened(r)) return expectStatus(r, status);
  r.ws.terminate();
  await r.closed;
  return null;
}

function expectStatus(r: Refused, status: number): Refused {
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.body}`);
  return r;
}

/** One CDP round trip on an open session. */
export function cdp(ws: WebSocket, method: string, params: object = {}, id = Math.floor(Math.random() * 1e6)): Promise<any> {
  return new Promise((resolve, reject) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString());
      if (message.id === id) {
        ws.off('message', onMessage);
        if (message.error) reject(new Error(message.error.message));
        else resolve(message.result);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, method, params }));
  });
}

export async function routerKey(workspaceId: string, routerId: string): Promise<string> {
  const { db } = await import('../../lib/db');
  const { decryptText } = await import('../../lib/crypto/encryption');
  const key = await db.routerKey.findFirstOrThrow({ where: { workspaceId, routerId, revokedAt: null }, orderBy: { createdAt: 'desc' } });
  return decryptText(key.keyEncrypted!);
}

/**
 * How long a wait for something that is under way may take before a test calls it a hang, at the
 * least. A deadline of a few seconds measures the machine: CI's two cores running three test files
 * beside a stack and its browsers were seen taking 10 s over what takes 1 s alone. A test that
 * asserts a time does so itself, with the time it measured.
 */
export const HANG_FLOOR_MS = 30_000;

/** Polls `check` until it returns a truthy value; fails after `timeoutMs` (never less than HANG_FLOOR_MS). */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 5_000, what = 'condition'): Promise<NonNullable<T>> {
  const bound = Math.max(timeoutMs, HANG_FLOOR_MS);
  const deadline = Date.now() + bound;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${bound} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
