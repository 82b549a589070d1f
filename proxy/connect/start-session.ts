// A connect whose provider answered: the upgrade answered to the client, the session's row, its
// plugins (profile, recording, trace) and its relay on the fast or the pipeline lane, and at its
// end every slot, lease and file collected (proxy/connect/handle-connect.ts routes it here).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { log } from '../../lib/log';
import { DEFAULT_POLICY } from '../agent/policy';
import type { SharedSlot } from '../cluster/cluster';
import type { RouterRuntime, RuntimeProvider } from '../config/router-store';
import type { Lease } from '../engine';
import type { ProfileSession } from '../plugins/profile';
import type { ProfilePlugin } from '../plugins/profile/plugin';
import { RecordingSession } from '../plugins/recording';
import { TraceSession } from '../plugins/trace';
import { FastLane } from '../relay/fast-lane';
import { PipelineLane, type PipelinePlugin } from '../relay/pipeline-lane';
import { CONTROL_PLANE_CLOSE, type Relay, type RelayOutcome } from '../relay/types';
import { collectDownloads, poolSessionOf } from '../sessions/collect-downloads';
import { SessionWriter } from '../../lib/sessions/session-writer';
import type { Upstream } from '../websocket/dial';
import { switchingProtocols } from '../websocket/handshake';
import type { Caller, ConnectDeps } from './types';
import type { UpstreamTarget } from './upstream-target';

/**
 * An agent's browser is closed by the toolkit after its own idle time (docs/agents.md, Sessions);
 * the relay only catches a toolkit that went away without closing, after the longest idle allowed.
 */
const AGENT_RELAY_IDLE_MS = DEFAULT_POLICY.maxIdleMs + 60_000;

type SessionInput = {
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  key: string;
  upstream: Upstream;
  target: UpstreamTarget;
  lease: Lease<RuntimeProvider>;
  shared: SharedSlot | null;
  router: RouterRuntime;
  caller: Caller;
  deps: ConnectDeps;
  id: string;
  profile: ProfileSession | null;
  record: boolean;
  trace: boolean;
};

export function startSession(input: SessionInput): void {
  const { socket, router, deps, id, profile, caller } = input;
  const provider = input.lease.provider;
  const startedAt = new Date();
  (socket as { setNoDelay?: (v: boolean) => void }).setNoDelay?.(true);

  const writer = new SessionWriter({
    id,
    workspaceId: router.workspaceId,
    routerId: router.id,
    provider: { id: provider.id, slug: provider.slug, name: provider.name },
    kind: caller.kind,
    proxyInstanceId: deps.proxyInstanceId,
    startedAt,
    profileId: profile?.profileId ?? null,
  });
  const session = sessionPlugins(input, writer, startedAt);
  let markEnded!: () => void;
  const ended = new Promise<void>((resolve) => (markEnded = resolve));
  const relay = openRelay(input, session.plugins, endOf(input, writer, session, markEnded));
  deps.sessions.add({
    id,
    routerId: router.id,
    keyId: caller.keyId,
    credential: caller.credential,
    workspaceId: router.workspaceId,
    startedAt: startedAt.getTime(),
    idleTimeoutMs: caller.kind === 'agent' ? AGENT_RELAY_IDLE_MS : router.sessionIdleTimeoutMs,
    relay,
    ended,
  });
}

/** The session's plugins and what each leaves to collect at its end. */
interface SessionPlugins {
  /** In the order the pipeline lane runs them. */
  plugins: PipelinePlugin[];
  profilePlugin: ProfilePlugin | null;
  recording: RecordingSession | null;
  trace: TraceSession | null;
  /** The local pool's session, whose downloads this proxy collects at the end; null for other providers or a pool that named none. */
  pool: ReturnType<typeof poolSessionOf>;
}

function sessionPlugins(input: SessionInput, writer: SessionWriter, startedAt: Date): SessionPlugins {
  const { upstream, target, router, deps, id, profile } = input;
  const identity = input.caller.identity;
  const provider = input.lease.provider;
  const plugins: PipelinePlugin[] = [];
  const profilePlugin = profile?.needsPlugin(provider) ? profile.plugin(provider, target, upstream) : null;
  if (profilePlugin) plugins.push(profilePlugin);
  else void profile?.release();
  const recording = input.record
    ? new RecordingSession(
        {
          sessionId: id,
          workspaceId: router.workspaceId,
          routerId: router.id,
          providerId: provider.id,
          profileId: profile?.profileId ?? null,
          wallet: identity,
          sessionInserted: writer.inserted,
          sessionStartedAt: startedAt,
        },
        deps.recording,
      )
    : null;
  if (recording) plugins.push(recording.plugin);
  // The local pool keeps what its browser downloaded for this proxy to collect at the end; other
  // providers keep their files, which a trace lists.
  const pool = provider.providerKind === 'managed' ? poolSessionOf(upstream) : null;
  // Last: the plugins before it drop their own CDP sessions' messages, which a trace must not see.
  const trace = input.trace
    ? new TraceSession(
        {
          sessionId: id,
          workspaceId: router.workspaceId,
          routerId: router.id,
          providerId: provider.id,
          wallet: identity,
          sessionInserted: writer.inserted,
          redactNames: router.traceRedactNames,
          downloadsAtProvider: pool === null,
        },
        deps.traces,
      )
    : null;
  if (trace) plugins.push(trace.plugin);
  return { plugins, profilePlugin, recording, trace, pool };
}

/** The relay's end: every slot and lease released, then the row, captures and downloads finished before the session counts as ended. */
function endOf(input: SessionInput, writer: SessionWriter, session: SessionPlugins, markEnded: () => void) {
  const { target, router, id } = input;
  const { profilePlugin, recording, trace, pool } = session;
  return (relay: () => Relay) => (outcome: RelayOutcome) => {
    input.lease.release();
    input.shared?.release();
    target.release(outcome.state === 'errored' ? 'error' : outcome.reason === CONTROL_PLANE_CLOSE ? 'close' : 'disconnect');
    // One instant ends the session: its row and its recording's video end together.
    const endedAt = new Date();
    const recorded = recording?.end(endedAt);
    const traced = trace?.end();
    const downloaded =
      pool &&
      writer.inserted
        .then(() => collectDownloads({ target, pool, sessionId: id, workspaceId: router.workspaceId }))
        .catch((error: Error) => log.warn({ sessionId: id, err: error.message }, 'downloads not collected from the pool'));
    void Promise.all([
      writer.finish(outcome, relay().stats, { recordedMs: recording?.recordedMs, traceEvents: trace?.eventCount }, endedAt),
      recorded,
      traced,
      profilePlugin?.done,
      downloaded,
    ]).then(() => markEnded());
  };
}

/** The client's 101, then the relay on the fast lane, or the pipeline lane when a plugin reads the traffic. */
function openRelay(input: SessionInput, plugins: PipelinePlugin[], onEnd: (relay: () => Relay) => (outcome: RelayOutcome) => void): Relay {
  const { socket, head, key, upstream, id } = input;
  const sessionHeaders: [string, string][] = [
    ['X-Session-Id', id],
    ['X-Provider', input.lease.provider.slug],
  ];
  // Only the fast lane offered the client's extensions to the provider (the pipeline lane reads
  // payloads, so it keeps them uncompressed); either way the provider's answer is passed back.
  const answer: [string, string][] = [];
  if (upstream.headers['sec-websocket-extensions']) answer.push(['Sec-WebSocket-Extensions', upstream.headers['sec-websocket-extensions']]);
  if (upstream.headers['sec-websocket-protocol']) answer.push(['Sec-WebSocket-Protocol', upstream.headers['sec-websocket-protocol']]);
  socket.write(switchingProtocols(key, [...answer, ...sessionHeaders]));
  const relay: Relay =
    input.deps.lane === 'pipeline' || plugins.length > 0
      ? new PipelineLane(
          socket,
          head,
          upstream.socket,
          upstream.head,
          id,
          plugins,
          onEnd(() => relay),
        )
      : new FastLane(
          socket,
          head,
          upstream.socket,
          upstream.head,
          onEnd(() => relay),
        );
  return relay;
}
