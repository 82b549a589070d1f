// The self-hosted gateway (docs/gateway.md): one HTTP server on one port with the WebSocket
// /v1/connect, GET /v1/status, POST /mcp, /v1/webhooks and the small dashboard, on the hosted
// proxy's routing engine and fast lane. No database: providers and settings come from gateway.yml,
// webhooks added at run time and the encryption key live in the data directory. Providers are
// probed at start-up and every 30 s for the status (probes.ts).
// Who may call: access.ts; the routes: routes.ts.
import { lstatSync, mkdirSync } from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { log } from '../../lib/log';
import { RouterEngine, systemClock } from '../engine';
import { guarded, json } from '../http/respond';
import type { GatewayConfig } from './config';
import { checkTokenStrength, GatewayAccess } from './access';
import { SHUTDOWN, type ConnectContext, type EngineProvider, type LiveSession } from './connect';
import { EventSender, outboundAgent } from './events';
import { GatewayMcp } from './mcp';
import { routeRequest, routeUpgrade, type GatewayRoutes } from './routes';
import { GatewayProfiles } from './profiles';
import { SetupError, loadEncryptionKey } from './secrets';
import { proxyFor } from '../../lib/net/outbound-proxy';
import { ProviderProbes } from './probes';
import { WebhookStore } from './webhook-store';
import type { Relay } from '../relay/types';

export type Env = Readonly<Record<string, string | undefined>>;

export interface GatewayOptions {
  config: GatewayConfig;
  env: Env;
  dataDir: string;
  /** `--port`; else PORT, else gateway.port. 0 picks a free port. */
  port?: number;
}

export interface Gateway {
  /** http://host:port as bound. */
  url: string;
  host: string;
  port: number;
  /** Runs the shutdown of docs/gateway.md once; later calls get the same promise. */
  shutdown(): Promise<void>;
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const { config, env, dataDir } = options;
  const token = env.GW_TOKEN || null;
  const host = env.HOST || (token ? '0.0.0.0' : '127.0.0.1');
  const port = options.port ?? (env.PORT ? Number(env.PORT) : config.gateway.port);
  const trustProxy = env.GW_TRUST_PROXY === '1';
  checkTokenStrength(token, host);
  const access = gatewayAccess(env, token, host, trustProxy);
  checkDataDir(dataDir);
  checkProxyVariables(env);
  const { key } = loadEncryptionKey(env, dataDir);
  const webhooks = new WebhookStore(config.webhooks, dataDir, key);
  const events = new EventSender(config.gateway.name, () => webhooks.all(), undefined, outboundAgent(env));
  const { providers, engine } = gatewayEngine(config, events);

  const probes = providerProbes(config, env, engine);

  let stopping = false;
  const sessions = new Map<Relay, LiveSession>();
  const ctx = connectContext(options, { engine, events, sessions, key, isStopping: () => stopping });
  let bound = { host, port };
  const mcp = new GatewayMcp(() => selfConnectUrl(bound, token));
  const publicUrl = () =>
    (env.GW_PUBLIC_URL || `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${bound.port}`).replace(
      /\/+$/,
      '',
    );

  const server = http.createServer((req, res) =>
    guarded(res, routeRequest(req, res, routes), { log, what: 'request', answer: (r) => json(r, 500, { error: 'internal error' }) }),
  );

  const routes: GatewayRoutes = { config, access, token, publicUrl, mcp, probes, sessions, webhooks, events, connect: ctx, isStopping: () => stopping };
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => routeUpgrade(req, socket, head, routes));

  await listen(server, port, host);
  const address = server.address() as AddressInfo;
  probes.start();
  bound = { host, port: address.port };
  const shownHost = dialableHost(host);

  let shuttingDown: Promise<void> | null = null;
  const shutdown = () => {
    stopping = true;
    return (shuttingDown ??= drainAndClose(routes, server));
  };

  logListening({ host, shownHost, port: address.port, providers: providers.length, token });
  return { url: `http://${shownHost}:${address.port}`, host, port: address.port, shutdown };
}

/** The providers' probes for the status. Reported, not routed on: the engine alone decides which provider a connect tries. */
function providerProbes(config: GatewayConfig, env: Env, engine: RouterEngine<EngineProvider>): ProviderProbes {
  return new ProviderProbes(config.providers, {
    clock: systemClock,
    timeoutMs: config.gateway.connectionTimeout,
    env,
    isFull: (id) => engine.status().some((s) => s.id === id && (s.full || (s.maxConcurrent !== null && s.active >= s.maxConcurrent))),
  });
}

/** Binds the server to host:port; a failure to bind (the port taken) rejects. */
function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The start-up line, and a warning when anyone who reaches the address may open browsers. */
function logListening(at: { host: string; shownHost: string; port: number; providers: number; token: string | null }): void {
  const { host, shownHost, port, providers, token } = at;
  const loopback = ['127.0.0.1', '::1', 'localhost'].includes(host);
  log.info({ url: `http://${shownHost}:${port}`, providers, auth: token ? 'token' : 'none' }, 'gateway listening');
  if (!token && !loopback)
    log.warn(
      { host },
      'no GW_TOKEN and not bound to loopback: anyone who can reach this address can open browsers (the Host check stops DNS rebinding, not direct clients); set GW_TOKEN',
    );
}

/** What a connect needs: the engine and its settings, the live sessions, the profiles, the events. */
function connectContext(
  options: GatewayOptions,
  parts: { engine: ConnectContext['engine']; events: EventSender; sessions: Map<Relay, LiveSession>; key: Buffer; isStopping: () => boolean },
): ConnectContext {
  const { engine, events, sessions, key, isStopping } = parts;
  return {
    inFlight: new Set(),
    engine,
    connectionTimeoutMs: options.config.gateway.connectionTimeout,
    queue: options.config.queue,
    cooldown: options.config.gateway.cooldown,
    isStopping,
    onQueueTimeout: (waitMs) => {
      log.warn({ waitMs }, 'queue timeout');
      events.emit('queue.timeout', { waitMs });
    },
    sessions,
    env: options.env,
    profiles: new GatewayProfiles(options.dataDir, key),
  };
}

/** This gateway's own /v1/connect on loopback (the MCP surface's browsers connect there), with its token. */
function selfConnectUrl(bound: { host: string; port: number }, token: string | null): string {
  const { host } = bound;
  const url = new URL(
    `ws://${host === '0.0.0.0' || host === '127.0.0.1' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host}:${bound.port}/v1/connect`,
  );
  if (token) url.searchParams.set('token', token);
  return url.toString();
}

/**
 * The shutdown of docs/gateway.md, once new work is refused: connects in flight aborted, MCP
 * sessions closed, sessions given the drain time, the rest closed, the events sent.
 */
async function drainAndClose({ config, probes, sessions, events, connect, mcp }: GatewayRoutes, server: http.Server): Promise<void> {
  probes.stop();
  const deadline = Date.now() + config.gateway.shutdownDrainMs;
  log.info({ sessions: sessions.size, drainMs: config.gateway.shutdownDrainMs }, 'shutting down: draining sessions');
  events.emit('shutdown.start', {});
  connect.engine.close();
  for (const attempt of connect.inFlight) attempt.abort(SHUTDOWN);
  await mcp.closeAll('the gateway is shutting down');
  while (sessions.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  if (sessions.size > 0) log.warn({ sessions: sessions.size }, 'drain time over: closing the remaining sessions');
  for (const relay of [...sessions.keys()]) relay.close(1001, 'gateway shutting down', { state: 'closed', reason: 'gateway shutdown' });
  await events.settle(Math.max(1_000, Math.min(5_000, deadline - Date.now())));
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Who may call: the token, and the origins and hosts a browser may call from. The address it binds to is its own name too (the MCP surface's browsers connect to it there). */
function gatewayAccess(env: Env, token: string | null, host: string, trustProxy: boolean): GatewayAccess {
  return new GatewayAccess({
    token,
    host,
    trustProxy,
    allowedOrigins: list(env.GW_ALLOWED_ORIGINS).map((origin) => origin.replace(/\/+$/, '').toLowerCase()),
    allowedHosts: new Set(list(env.GW_ALLOWED_HOSTS).map((h) => h.toLowerCase())),
    publicOrigin: env.GW_PUBLIC_URL ? originOf(env.GW_PUBLIC_URL) : null,
  });
}

/** The hosted proxy's routing engine over gateway.yml's providers and settings; a cooldown is logged and sent as an event. */
function gatewayEngine(config: GatewayConfig, events: EventSender) {
  const providers: EngineProvider[] = config.providers.map((p) => ({
    id: p.id,
    slug: p.id,
    priority: p.priority,
    weight: p.weight,
    maxConcurrent: p.limits.maxConcurrent,
    advertisedMaxConcurrent: null,
    config: p,
  }));
  const engine = new RouterEngine<EngineProvider>({
    clock: systemClock,
    providers,
    settings: {
      strategy: config.gateway.defaultStrategy,
      cooldownDefaultMs: config.gateway.cooldown.defaultMs,
      cooldownFailureThreshold: config.gateway.cooldown.failureThreshold,
      cooldownMinRequestVolume: config.gateway.cooldown.minRequestVolume,
      queueMaxSize: config.queue.maxSize,
      queueTimeoutMs: config.queue.timeoutMs,
    },
  });
  engine.onCooldown((providerId, cooldownMs) => {
    log.warn({ provider: providerId, cooldownMs }, 'provider in cooldown');
    events.emit('provider.cooldown', { providerId, cooldownMs });
  });
  return { providers, engine };
}

function originOf(raw: string): string | null {
  try {
    return new URL(raw).origin.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * The data directory holds the encryption key: it must be a real directory of this user that no
 * one else can write into (else another user could plant a key of theirs, and read what it seals).
 * Made 0700 when missing.
 */
function checkDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) throw new SetupError(`the data directory ${dir} is not a directory (a symbolic link?); set GW_DATA_DIR to a directory of your own`);
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid())
    throw new SetupError(`the data directory ${dir} belongs to another user; set GW_DATA_DIR to a directory of your own`);
  if ((stat.mode & 0o022) !== 0)
    throw new SetupError(`the data directory ${dir} can be written by other users (mode ${(stat.mode & 0o777).toString(8)}); chmod 700 it`);
}

/** HTTP(S)_PROXY must be http:// proxies: refused at start rather than failing every connect. */
function checkProxyVariables(env: Env): void {
  for (const url of ['ws://x', 'wss://x']) {
    try {
      proxyFor(new URL(url), env);
    } catch (error) {
      throw new SetupError((error as Error).message);
    }
  }
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * The host a client can dial for the address bound to: itself, or for all interfaces (0.0.0.0, ::)
 * this machine's first external IPv4 address (loopback when it has none), never the wildcard.
 */
function dialableHost(host: string): string {
  if (host !== '0.0.0.0' && host !== '::') return host.includes(':') ? `[${host}]` : host;
  const external = Object.values(os.networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal);
  return external?.address ?? '127.0.0.1';
}
