// Test helpers for /v1/connect as a client meets it: `gateway serve` (the real binary) in a child
// process with its JSON log lines, WebSocket connects whose outcome (the 101's provider, or the
// refusal) is watched while they wait, and a TCP provider in front of a real Chromium that can be
// switched to hang, or started late on a port that refused until then.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { eventually } from '../../e2e/support/connect';
import type { GatewayStatus } from './status';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Served {
  url: string;
  /** ws://…/v1/connect */
  connect: string;
  /** The JSON log lines printed so far. */
  lines(): { msg: string; [field: string]: unknown }[];
  status(): Promise<GatewayStatus>;
  stop(): Promise<void>;
}

/** Starts `gateway serve` on a free port with this gateway.yml; resolves once it listens. */
export async function serve(yaml: string): Promise<Served> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'gw-connect-'));
  writeFileSync(path.join(home, 'gateway.yml'), yaml);
  const child: ChildProcess = spawn(process.execPath, ['proxy/cli/gateway.mjs', 'serve', '--config', path.join(home, 'gateway.yml'), '--port', '0'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: home, GW_DATA_DIR: path.join(home, 'data'), LOG_LEVEL: 'info' } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    rmSync(home, { recursive: true, force: true });
  };
  try {
    const url = await eventually(
      () => / listening on (http:\/\/\S+) /.exec(output)?.[1] ?? (child.exitCode !== null ? Promise.reject(new Error(output)) : undefined),
      30_000,
      'the gateway address',
    );
    const lines = () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string });
    const status = async () => (await fetch(`${url}/v1/status`)).json() as Promise<GatewayStatus>;
    return { url, connect: `${url.replace('http', 'ws')}/v1/connect`, lines, status, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export type Outcome = { opened: true; provider: string; socket: WebSocket } | { opened: false; status: number; body: unknown };

export interface PendingConnect {
  readonly startedAt: number;
  /** The outcome once known, else null: a waiting connect has none. */
  settled(): Outcome | null;
  outcome: Promise<Outcome>;
}

/** Opens a WebSocket to the gateway and watches for its 101 (with X-Provider) or its refusal. */
export function connect(url: string): PendingConnect {
  const startedAt = Date.now();
  let known: Outcome | null = null;
  const outcome = new Promise<Outcome>((resolve, reject) => {
    const socket = new WebSocket(url);
    let provider = '';
    socket.on('upgrade', (res) => (provider = String(res.headers['x-provider'])));
    socket.on('open', () => resolve((known = { opened: true, provider, socket })));
    socket.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk));
      res.on('end', () => resolve((known = { opened: false, status: res.statusCode ?? 0, body: JSON.parse(text) })));
    });
    socket.on('error', (error) => reject(error));
  });
  return { startedAt, settled: () => known, outcome };
}

/** A session that is open: its socket, to close it later. */
export async function opened(url: string): Promise<WebSocket> {
  const result = await connect(url).outcome;
  if (!result.opened) throw new Error(`expected a session, got ${result.status} ${JSON.stringify(result.body)}`);
  return result.socket;
}

export function closed(socket: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.readyState === WebSocket.CLOSED) return resolve();
    socket.once('close', () => resolve());
    socket.close();
  });
}

export interface TcpProvider {
  url: string;
  port: number;
  /** `pass` relays to the browser; `hang` takes connections and never answers (a connect timeout). */
  mode: 'pass' | 'hang';
  /** Connections it took while hanging. */
  hung: number;
  stop(): Promise<void>;
}

/** A provider in front of a real browser's DevTools port, on `port` (else a free one). */
export async function tcpProvider(browserWsUrl: string, port = 0): Promise<TcpProvider> {
  const target = new URL(browserWsUrl);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('error', () => {});
    client.on('close', () => sockets.delete(client));
    if (provider.mode === 'hang') return void provider.hung++;
    const browser = net.connect(Number(target.port), target.hostname);
    sockets.add(browser);
    browser.on('error', () => client.destroy());
    browser.on('close', () => (sockets.delete(browser), client.destroy()));
    client.on('close', () => browser.destroy());
    client.pipe(browser).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as net.AddressInfo).port;
  const provider: TcpProvider = {
    url: `ws://127.0.0.1:${bound}${target.pathname}`,
    port: bound,
    mode: 'pass',
    hung: 0,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return provider;
}
