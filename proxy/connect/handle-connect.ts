// GET /v1/connect: authenticate, refuse before the upgrade when the session cannot run, pick a
// provider through the routing engine (queue, cooldown, failover), complete both handshakes and
// hand the sockets to a relay lane. Each refusal is a plain-text HTTP status (docs/connect.md, Refusals).
// A browser an agent opens through the MCP surface comes here too, from this process over loopback
// with an agent ticket instead of a key (agent-tickets.ts, docs/agents.md): its session is kind
// `agent` and belongs to the MCP session's credential; everything else is the same path.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { log } from '../../lib/log';
import type { EngineError } from '../engine';
import { KEY_REFUSED, THROTTLED } from '../auth/authenticate';
import type { RouterRuntime, RuntimeProvider } from '../config/router-store';
import { newSessionId } from '../../lib/sessions/session-writer';
import { ProfileSession, ResidueError } from '../plugins/profile';
import { DialError, dialUpstream, type Upstream } from '../websocket/dial';
import { headerValue, invalidUpgrade, watchPending } from '../websocket/handshake';
import { checkFeatures, parseConnectParams } from './params';
import { resolveTarget, type UpstreamTarget } from './upstream-target';
import { Refusal, writeRefusal } from './refuse';
import { walkProviders, type Walked } from '../routing/attempts';
import { dialVerdict } from '../routing/dial-verdict';
import { CONNECT_REFUSALS } from '../routing/refusals';
import { startSession } from './start-session';

import { AGENT_TICKET_PARAM, isLocalCaller } from './agent-tickets';
import type { Caller, ConnectDeps } from './types';

export type { Caller, ConnectDeps } from './types';

export async function handleConnect(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL, deps: ConnectDeps): Promise<void> {
  const abort = new AbortController();
  socket.on('error', () => {});
  // A client that hangs up (FIN or reset) while its connect is routed or dialled cancels it: the
  // dial is abandoned (a pool then stops the browser it was starting), no slot stays held.
  const pending = watchPending(socket, () => abort.abort());
  try {
    await connect(req, socket, head, url, deps, abort.signal, pending);
    // Returned without a session: the client went away while it was being set up.
    if (abort.signal.aborted) {
      pending.stop();
      socket.destroy();
    }
  } catch (error) {
    pending.stop();
    if (abort.signal.aborted) socket.destroy();
    else if (error instanceof Refusal) writeRefusal(socket, error);
    else {
      log.error({ err: (error as Error).message }, 'connect failed unexpectedly');
      writeRefusal(socket, new Refusal(500, 'internal error while opening the session'));
    }
  }
}

async function connect(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  url: URL,
  deps: ConnectDeps,
  signal: AbortSignal,
  pending: { stop(): Buffer },
): Promise<void> {
  const t0 = performance.now();
  if (deps.isStopping()) throw new Refusal(503, 'the proxy is shutting down; retry in a moment');
  const invalid = invalidUpgrade(req);
  if (invalid) throw new Refusal(400, invalid);
  const key = req.headers['sec-websocket-key']!.trim();

  const caller = await authenticate(req, url, deps);
  const identity = caller.identity;
  if (identity.suspended) throw new Refusal(402, 'the workspace is suspended');

  const tAuth = performance.now();
  const params = parseConnectParams(url);
  const router = await deps.routers.get(identity.routerId);
  if (!router) throw new Refusal(401, 'router key missing, wrong or revoked');
  checkFeatures(params, router, identity);
  if (router.providers.length === 0) throw new Refusal(400, 'this router has no enabled providers; add one in the dashboard');

  const sessionId = newSessionId();
  const profile = params.profile
    ? await ProfileSession.open({
        workspaceId: router.workspaceId,
        slug: params.profile,
        readOnly: params.readOnly,
        sessionId,
        providers: params.provider ? router.providers.filter((p) => p.slug === params.provider || p.id === params.provider) : router.providers,
      })
    : null;
  let started = false;
  try {
    await route({
      req,
      socket,
      head,
      url,
      deps,
      signal,
      pending,
      t0,
      tAuth,
      key,
      params,
      router,
      caller,
      sessionId,
      profile,
      onStarted: () => (started = true),
    });
  } finally {
    if (!started) await profile?.release();
  }
}

/**
 * A router key (or a connect ticket from CDP discovery) through the shared check; or an agent
 * ticket, which only this process issues and only its own loopback connects may redeem. A refused
 * agent ticket reads like a refused key and counts toward the address's failure throttle.
 */
async function authenticate(req: IncomingMessage, url: URL, deps: ConnectDeps): Promise<Caller> {
  if (url.searchParams.has(AGENT_TICKET_PARAM)) {
    const ip = deps.keys.clientIp(req);
    const entry = isLocalCaller(req) ? deps.agentTickets?.redeem(url.searchParams.get(AGENT_TICKET_PARAM)) : null;
    if (entry) return { identity: entry.identity, kind: 'agent', keyId: entry.credentialId, credential: entry.credential ?? 'router_key' };
    const blockedFor = deps.keys.throttle.blockedFor(ip, Date.now());
    if (blockedFor > 0) throw new Refusal(429, THROTTLED, { 'Retry-After': String(blockedFor) });
    deps.keys.throttle.recordFailure(ip, Date.now());
    throw new Refusal(401, KEY_REFUSED);
  }
  const auth = await deps.keys.check(req, url);
  if (!auth.ok) throw new Refusal(auth.status, auth.message, auth.headers);
  return { identity: auth.identity, kind: 'route', keyId: auth.identity.keyId, credential: 'router_key' };
}

type RouteInput = {
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  url: URL;
  deps: ConnectDeps;
  signal: AbortSignal;
  pending: { stop(): Buffer };
  t0: number;
  tAuth: number;
  key: string;
  params: ReturnType<typeof parseConnectParams>;
  router: RouterRuntime;
  caller: Caller;
  sessionId: string;
  profile: ProfileSession | null;
  onStarted: () => void;
};

async function route(input: RouteInput): Promise<void> {
  const { deps, signal, params, router, profile } = input;
  // A provider pinned to a profile takes only that profile's sessions (docs/profiles.md, Routing).
  const forProfile = profile ? (p: RuntimeProvider) => profile.eligible(p) : (p: RuntimeProvider) => p.profileId === null;
  // A recorded session goes only where the capability probe did not find screencasting missing.
  const eligible = params.record ? (p: RuntimeProvider) => p.canRecord && forProfile(p) : forProfile;
  let tRoute = 0;
  const walked = await walkProviders<RuntimeProvider, Opened>({
    signal,
    acquire: () => router.engine.acquire({ pin: params.provider ?? undefined, eligible, signal }).finally(() => (tRoute = performance.now())),
    attempt: (provider) => open(input, provider),
    verdict: (error) =>
      dialVerdict(error, { residueNote: 'a session that did not end cleanly; its provider is skipped until cleared', policyUntilReset: true }),
    refuse: (error) => engineRefusal(error, params, router, profile),
    exhausted: (last) => {
      throw new Refusal(502, `every eligible provider failed to open a browser:\n${last.attempts.map((a) => `- ${a.slug}: ${a.reason}`).join('\n')}`);
    },
    skippedAll: (last) =>
      new Refusal(409, `no provider can take profile "${profile!.profile.slug}" now: ${last.attempts.map((a) => `${a.slug}: ${a.reason}`).join('; ')}`),
    shared: deps.cluster && {
      cluster: deps.cluster,
      engine: router.engine,
      settings: router.settings,
      unavailable: () => new Refusal(503, 'routing is unavailable for a moment (the database did not answer); retry shortly'),
    },
    label: 'provider',
    logContext: { routerId: router.id },
  });
  if (!walked) return;
  handOver(input, walked, tRoute);
}

/** The provider the walk opened: its lease taken, and the session started unless the client went away meanwhile. */
function handOver(input: RouteInput, { reservation, value, shared }: Walked<RuntimeProvider, Opened>, tRoute: number): void {
  const { upstream, target, upstreamHead } = value;
  const { req, socket, head, deps, signal, pending, t0, tAuth, key, params, router, caller, profile } = input;
  const lease = reservation.succeed(upstream.connectMs);
  if (signal.aborted) {
    lease.release();
    void shared?.release();
    upstream.socket.destroy();
    target.release('disconnect');
    return;
  }
  const early = pending.stop();
  input.onStarted();
  startSession({
    req,
    socket,
    head: early.length > 0 ? Buffer.concat([head, early]) : head,
    key,
    upstream: upstreamHead ? { ...upstream, head: upstreamHead } : upstream,
    target,
    lease,
    shared,
    router,
    caller,
    deps,
    id: input.sessionId,
    profile,
    record: params.record,
    trace: params.observability,
  });
  const done = performance.now();
  log.debug(
    {
      routerId: router.id,
      provider: reservation.provider.slug,
      authMs: ms(tAuth - t0),
      routeMs: ms(tRoute - tAuth),
      dialMs: ms(upstream.connectMs),
      totalMs: ms(done - t0),
    },
    'session started',
  );
}

interface Opened {
  upstream: Upstream;
  target: UpstreamTarget;
  /** What the browser sent after its 101 once a profile was loaded; null without a profile. */
  upstreamHead: Buffer | null;
}

/** One attempt: the provider's browser address, its WebSocket, and the profile loaded there. */
async function open({ req, deps, signal, params, router, profile }: RouteInput, provider: RuntimeProvider): Promise<Opened> {
  const target = await resolveTarget(provider);
  try {
    if (signal.aborted) throw new DialError('aborted', 'the client went away');
    // Only the fast lane passes the client's extension offer through: it does not re-frame (and a
    // profile is loaded over plain frames).
    const fast = deps.lane === 'fast' && !profile && !params.record && !params.observability;
    const dialUrl = profile
      ? await profile.dialUrl(provider, target).catch((e: Error) => {
          throw new DialError('rejected', e.message);
        })
      : target.url;
    const upstream = await dialUpstream({
      url: dialUrl,
      headers: target.headers,
      policy: target.policy,
      timeoutMs: router.connectionTimeoutMs,
      extensions: fast ? headerValue(req, 'sec-websocket-extensions') : undefined,
      protocol: headerValue(req, 'sec-websocket-protocol'),
      signal,
    });
    return { upstream, target, upstreamHead: profile ? await loadProfile(profile, upstream, provider, signal) : null };
  } catch (error) {
    target.release(signal.aborted ? 'disconnect' : 'error');
    throw error;
  }
}

async function loadProfile(profile: ProfileSession, upstream: Upstream, provider: RuntimeProvider, signal: AbortSignal): Promise<Buffer> {
  let loaded: Buffer;
  try {
    loaded = await profile.load(upstream, provider);
  } catch (error) {
    upstream.socket.destroy();
    if (error instanceof ResidueError) throw error;
    throw new DialError('error', `loading profile "${profile.profile.slug}" failed: ${(error as Error).message}`);
  }
  if (signal.aborted) {
    upstream.socket.destroy();
    throw new DialError('aborted', 'the client went away');
  }
  return loaded;
}

function engineRefusal(error: EngineError, params: RouteInput['params'], router: RouterRuntime, profile: ProfileSession | null): Refusal {
  if (
    error.code === 'none_eligible' &&
    params.record &&
    !router.providers.some((p) => p.canRecord && (params.provider === null || p.slug === params.provider || p.id === params.provider))
  ) {
    return new Refusal(400, 'no provider on this router can record: their capability check found no page screencast support; connect without session_record=');
  }
  const answer = CONNECT_REFUSALS[error.code](error, {
    pinned: params.provider,
    profile: profile && { slug: profile.profile.slug, readOnly: profile.readOnly },
  });
  return new Refusal(answer.status, answer.message, answer.headers);
}

const ms = (value: number) => Math.round(value * 100) / 100;
