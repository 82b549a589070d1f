// Test support for the pool: an in-process pool on a free port (with a token, isolated as in
// production), a local page server, polling with a deadline, and ways to see processes and
// WebSocket refusals from the outside.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import WebSocket from 'ws';
import { eventually } from '../../e2e/support/connect';
import type { EgressPolicy } from '../../lib/net/egress-policy';
import { readPoolConfig, type PoolConfig } from './config';
import { startPool, type RunningPool } from './server';
import { processes } from './workdir';

export const testLog = pino({ level: process.env.TEST_VERBOSE ? 'info' : 'silent', base: { service: 'pool' } });

export const TEST_TOKEN = 'pool-test-token-0123456789';
/** The pool token as a bearer header. */
export const auth = { authorization: `Bearer ${TEST_TOKEN}` };

export interface TestPool extends RunningPool {
  http: string;
  ws: string;
  dataDir: string;
  /** Fetches a pool path with the token (unless `headers` says otherwise). */
  get(p: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

/**
 * A pool on a free port with TEST_TOKEN, isolated as the machine allows (as in production). Its
 * pages may reach this machine's other loopback ports (the test page server): PRIVATE_NETWORK=allow,
 * the pool's own ports and its browsers' DevTools ports staying refused.
 */
export async function startTestPool(
  overrides: Partial<PoolConfig> = {},
  ready = true,
  policy: EgressPolicy = { privateNetwork: 'allow', internalPorts: new Set() },
): Promise<TestPool> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pool-test-'));
  const config: PoolConfig = { ...readPoolConfig({ POOL_TOKEN: TEST_TOKEN }), port: 0, dataDir, capacity: 2, capacityFrom: 'POOL_CAPACITY', ...overrides };
  const running = await startPool(config, testLog, { egressPolicy: policy });
  const base = `http://127.0.0.1:${running.port}`;
  const pool: TestPool = {
    ...running,
    http: base,
    ws: `ws://127.0.0.1:${running.port}`,
    dataDir,
    get: (p, init = {}) => fetch(`${base}${p}`, { ...init, headers: { ...auth, ...(init.headers as Record<string, string> | undefined) } }),
    async stop() {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  if (ready) await waitFor('pool calibrated', () => !running.pool.status().calibrating, 30_000);
  return pool;
}

/** Polls until `check` returns something truthy; fails with `what` after `timeoutMs` (at least the e2e helpers' hang floor). */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  return eventually(check, timeoutMs, what);
}

/** Pids of processes whose command line mentions `dir` (browsers use it as their user-data-dir). */
export async function processesUnder(dir: string): Promise<number[]> {
  return (await processes()).filter((p) => p.cmdline.includes(dir) && p.pid !== process.pid).map((p) => p.pid);
}

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

export async function startPageServer(port = 0): Promise<PageServer> {
  const server = http.createServer((req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>pool test page</title><p id="p">hello from the test server</p>'),
  );
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface OpenSocket {
  ws: WebSocket;
  sessionId: string;
  /** X-Pool-Snapshot-Key of the 101. */
  snapshotKey: string;
  closed: Promise<{ code: number; reason: string }>;
}

/** A raw CDP WebSocket through the pool (cheaper than a Playwright client when no page is needed). */
export function openSocket(url: string, headers: Record<string, string> = {}): Promise<OpenSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.once('close', (code, reason) => r({ code, reason: reason.toString() })));
    ws.once('upgrade', (res) => {
      const sessionId = res.headers['x-pool-session'];
      const snapshotKey = res.headers['x-pool-snapshot-key'];
      ws.once('open', () => resolve({ ws, sessionId: String(sessionId), snapshotKey: String(snapshotKey), closed }));
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}: ${body.trim()}`), { status: res.statusCode, body: body.trim() })));
    });
    ws.once('error', reject);
  });
}

/** The HTTP status and body with which the pool refuses an upgrade. */
export async function refusal(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  try {
    const { ws } = await openSocket(url, headers);
    ws.terminate();
    throw new Error('the upgrade was accepted');
  } catch (error) {
    const { status, body } = error as { status?: number; body?: string };
    if (status === undefined) throw error;
    return { status, body: body ?? '' };
  }
}

/** One CDP command on a raw socket. */
export function cdp(
  ws: WebSocket,
  id: number,
  method: string,
  params: object = {},
): Promise<{ id: number; result?: Record<string, unknown>; error?: unknown }> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as { id?: number };
      if (message.id !== id) return;
      ws.off('message', onMessage);
      resolve(message as { id: number });
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, method, params }));
  });
}
