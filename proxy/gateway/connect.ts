// The gateway's WebSocket /v1/connect (docs/gateway.md, "Connect"): the hosted proxy's routing
// engine and fast lane with the gateway's edges. Providers come from gateway.yml and are the
// operator's own, so no tenant egress policy applies; refusals are JSON bodies; an exhausted
// failover chain waits in the queue when it is on (connect-wait.ts), and a disabled or full queue
// and a queue timeout are all the one 503 `{ "error": "All providers unavailable" }`; a pinned
// provider that cannot take the session is a 503 naming it, at once.
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { log } from '../../lib/log';
import { resolveBrowserUrl } from '../../lib/providers/address';
import type { EgressPolicy } from '../../lib/net/egress-policy';
import { proxyFor } from '../../lib/net/outbound-proxy';
import type { EngineError, Reservation, RouterEngine } from '../engine';
import { walkProviders } from '../routing/attempts';
import { dialVerdict } from '../routing/dial-verdict';
import { ALL_UNAVAILABLE, GATEWAY_REFUSALS } from '../routing/refusals';
import { FastLane } from '../relay/fast-lane';
import { PipelineLane } from '../relay/pipeline-lane';
import type { Relay, RelayOutcome } from '../relay/types';
import { ResidueError } from '../plugins/profile/browser-state';
import { ProfileRefusal, type GatewayProfiles, type GatewayProfileSession } from './profiles';
import { DialError, dialUpstream, type Upstream } from '../websocket/dial';
import { headerValue, invalidUpgrade, switchingProtocols, watchPending } from '../websocket/handshake';
import type { GatewayProvider } from './config';
import { ConnectWait, type EngineProvider, type WaitSettings } from './connect-wait';

/** The operator's own addresses: private and loopback ones are the usual case. */
export const OPERATOR_POLICY: EgressPolicy = Object.freeze({ privateNetwork: 'allow', internalPorts: new Set<number>() }) as EgressPolicy;

export type { EngineProvider } from './connect-wait';

/** A session running now, as GET /v1/status lists it. */
export interface LiveSession {
  /** `ses_` and 32 hex digits, the hosted proxy's form; in the session's log lines too. */
  id: string;
  provider: string;
  /** Epoch ms of the 101. */
  startedAt: number;
}

/** `queue` and `cooldown` are gateway.yml's: the engine has them too, but no getter. */
export interface ConnectContext extends WaitSettings {
  engine: RouterEngine<EngineProvider>;
  connectionTimeoutMs: number;
  isStopping(): boolean;
  /** A connection waited in the queue past its timeout and got the 503. */
  onQueueTimeout(waitMs: number): void;
  /** Connects being routed or dialled: a shutdown aborts them with reason SHUTDOWN. */
  inFlight: Set<AbortController>;
  /** Live sessions, for the drain at shutdown and /v1/status. */
  sessions: Map<Relay, LiveSession>;
  profiles: GatewayProfiles;
  /** HTTP_PROXY, HTTPS_PROXY and NO_PROXY for the provider dials. */
  env: Readonly<Record<string, string | undefined>>;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Why a connect being set up was cancelled by the gateway (not by its client): it gets a 503. */
export const SHUTDOWN = 'shutdown';

export async function handleGatewayConnect(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL, ctx: ConnectContext): Promise<void> {
  const abort = new AbortController();
  socket.on('error', () => {});
  const pending = watchPending(socket, () => abort.abort());
  // A shutdown cancels the connects still being routed or dialled (ConnectContext.inFlight).
  ctx.inFlight.add(abort);
  const gone = () => {
    if (abort.signal.reason === SHUTDOWN) refuse(socket, 503, 'the gateway is shutting down');
    else socket.destroy();
  };
  try {
    await connect(req, socket, head, url, ctx, abort.signal, pending);
    if (abort.signal.aborted) {
      pending.stop();
      gone();
    }
  } catch (error) {
    pending.stop();
    if (abort.signal.aborted) gone();
    else if (error instanceof Refusal) refuse(socket, error.status, error.message);
    else {
      log.error({ err: (error as Error).message }, 'connect failed unexpectedly');
      refuse(socket, 500, 'internal error while opening the session');
    }
  } finally {
    ctx.inFlight.delete(abort);
  }
}

/** Answers an upgrade request with a JSON `{ error }` body and closes the socket. */
export function refuse(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ error: message });
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...extra,
    'Connection: close',
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

async function connect(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  url: URL,
  ctx: ConnectContext,
  signal: AbortSignal,
  pending: { stop(): Buffer },
): Promise<void> {
  if (ctx.isStopping()) throw new Refusal(503, 'the gateway is shutting down');
  const invalid = invalidUpgrade(req);
  if (invalid) throw new Refusal(400, invalid);
  const key = req.headers['sec-websocket-key']!.trim();
  const pin = url.searchParams.get('provider') ?? undefined;
  const profileName = url.searchParams.get('profile');
  const readOnly = url.searchParams.get('readOnly') === '1';
  if (url.searchParams.has('readOnly') && !['0', '1'].includes(url.searchParams.get('readOnly')!)) throw new Refusal(400, 'readOnly must be 1 or 0');
  if (readOnly && !profileName) throw new Refusal(400, 'readOnly=1 only applies together with profile=');
  let profile: GatewayProfileSession | null = null;
  if (profileName !== null) {
    try {
      profile = ctx.profiles.open(profileName, readOnly, randomBytes(8).toString('hex'));
    } catch (error) {
      if (error instanceof ProfileRefusal) throw new Refusal(error.status, error.message);
      throw error;
    }
  }
  let started = false;
  const wait = new ConnectWait(ctx.engine, ctx, signal);
  try {
    await route({ req, socket, head, key, pin, profile, ctx, signal, pending, wait });
    started = !signal.aborted;
  } finally {
    wait.dispose();
    if (!started) profile?.release();
  }
}

/** One connection being routed: what its attempts need. */
interface Routing {
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  key: string;
  pin: string | undefined;
  profile: GatewayProfileSession | null;
  ctx: ConnectContext;
  signal: AbortSignal;
  pending: { stop(): Buffer };
  wait: ConnectWait;
}

async function route(r: Routing): Promise<void> {
  const { ctx, wait, pin } = r;
  const walked = await walkProviders<EngineProvider, Dialled>({
    signal: r.signal,
    acquire: () => ctx.engine.acquire({ pin, signal: r.signal }),
    attempt: (provider) => dial(r, provider.config),
    // Not the provider's fault: a browser holding another profile's state is skipped without cooldown.
    verdict: (error) => dialVerdict(error, { residueNote: 'a session that did not end cleanly', policyUntilReset: false }),
    refuse: (error) => refusalFor(error, pin, ctx),
    // Every wait, "full" included, is cut at this connection's queue deadline (connect-wait.ts).
    full: (reservation) => reservation.full({ signal: wait.signal }),
    settle: (step) => wait.settle(step),
    onFailed: (provider) => wait.failed(provider.id),
    exhausted: (last, failures) => {
      if (pin) throw new Refusal(503, `Provider "${last.provider.config.id}" unavailable: ${failures.at(-1)!.reason}`);
      if (!wait.enabled) throw new Refusal(503, ALL_UNAVAILABLE);
      // A failure that leaves no provider in the chain waits in the queue when it is on.
      return wait.again(last.attempts.map((a) => a.slug));
    },
    skippedAll: (last) =>
      new Refusal(409, `no provider can take profile "${r.profile!.name}" now: ${last.attempts.map((a) => `${a.slug}: ${a.reason}`).join('; ')}`),
    label: 'provider',
  });
  if (walked) start(r, walked.reservation, walked.value);
}

interface Dialled {
  upstream: Upstream;
  /** What the provider sent after its 101 (after the profile was loaded, with one). */
  head: Buffer;
}

/** Opens the provider's browser WebSocket and, with a profile, loads it there before the client's 101. */
async function dial(r: Routing, provider: GatewayProvider): Promise<Dialled> {
  const { ctx, profile, signal } = r;
  const target = await resolveBrowserUrl(
    provider.url,
    provider.headers,
    ctx.connectionTimeoutMs,
    OPERATOR_POLICY,
    proxyFor(new URL(provider.url), ctx.env),
  ).catch((error: Error) => {
    throw new DialError('refused', error.message);
  });
  if (signal.aborted) throw new DialError('aborted', 'the client went away');
  // The pipeline lane (a profile) reads payloads, so the client's compression offer is not passed on.
  const upstream = await dialUpstream({
    url: target,
    headers: provider.headers,
    policy: OPERATOR_POLICY,
    viaProxy: proxyFor(new URL(target), ctx.env),
    timeoutMs: ctx.connectionTimeoutMs,
    extensions: profile ? undefined : headerValue(r.req, 'sec-websocket-extensions'),
    protocol: headerValue(r.req, 'sec-websocket-protocol'),
    signal,
  });
  if (!profile) return { upstream, head: upstream.head };
  const head = await profile.load(upstream).catch((error: Error) => {
    upstream.socket.destroy();
    if (error instanceof ResidueError) throw error;
    throw new DialError('error', `loading profile "${profile.name}" failed: ${error.message}`);
  });
  if (signal.aborted) {
    upstream.socket.destroy();
    throw new DialError('aborted', 'the client went away');
  }
  return { upstream, head };
}

/** The provider answered: the client's 101 and the relay, holding the slot until the session ends. */
function start(r: Routing, reservation: Reservation<EngineProvider>, { upstream, head: upstreamHead }: Dialled): void {
  const { ctx, profile, socket } = r;
  const provider = reservation.provider.config;
  const lease = reservation.succeed(upstream.connectMs);
  if (r.signal.aborted || ctx.isStopping()) {
    lease.release();
    upstream.socket.destroy();
    if (r.signal.aborted) return;
    throw new Refusal(503, 'the gateway is shutting down');
  }
  const early = r.pending.stop();
  const answer: [string, string][] = [['X-Provider', provider.id]];
  if (profile) answer.push(['X-Profile', profile.name]);
  if (upstream.headers['sec-websocket-extensions']) answer.push(['Sec-WebSocket-Extensions', upstream.headers['sec-websocket-extensions']]);
  if (upstream.headers['sec-websocket-protocol']) answer.push(['Sec-WebSocket-Protocol', upstream.headers['sec-websocket-protocol']]);
  (socket as { setNoDelay?: (v: boolean) => void }).setNoDelay?.(true);
  socket.write(switchingProtocols(r.key, answer));
  const clientHead = early.length > 0 ? Buffer.concat([r.head, early]) : r.head;
  const plugin = profile?.plugin();
  const session: LiveSession = { id: `ses_${randomUUID().replaceAll('-', '')}`, provider: provider.id, startedAt: Date.now() };
  const onEnd = (outcome: RelayOutcome) => {
    lease.release();
    log.info({ session: session.id, provider: provider.id, state: outcome.state, reason: outcome.reason }, 'session ended');
    // A profile's capture runs after the client left; the drain at shutdown waits for it too.
    void (plugin?.done ?? Promise.resolve()).finally(() => ctx.sessions.delete(relay));
  };
  const relay: Relay = plugin
    ? new PipelineLane(socket, clientHead, upstream.socket, upstreamHead, `gw-${provider.id}`, [plugin], onEnd)
    : new FastLane(socket, clientHead, upstream.socket, upstreamHead, onEnd);
  ctx.sessions.set(relay, session);
  log.info({ session: session.id, provider: provider.id, connectMs: Math.round(upstream.connectMs) }, 'session started');
}

function refusalFor(error: EngineError, pin: string | undefined, ctx: ConnectContext): Refusal {
  if (error.code === 'queue_timeout') ctx.onQueueTimeout(error.waitedMs ?? 0);
  const answer = GATEWAY_REFUSALS[error.code](error, { pinned: pin });
  return new Refusal(answer.status, answer.message);
}
