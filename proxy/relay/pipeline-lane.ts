// Pipeline lane: a message-level relay with plugins (profiles, recording, traces, agent tools
// plug in here). It works on WebSocket frames over the raw sockets, like the fast lane: frames
// pass on as the bytes they arrived as, and a message is decoded only when a plugin reads it or
// when it may be the reply to an injected command. Injected commands use ids from their own range
// and their replies never reach the client. Backpressure: a full writer pauses the other side's
// reader until it drains; no message is ever dropped.
import type { Duplex } from 'node:stream';
import { FrameReader, OP_CLOSE, OP_TEXT, parseClosePayload, payloadOf, type CloseInfo, type Frame } from '../websocket/frames';
import { AttachedSessions } from './attached-sessions';
import { LARGEST_WATCHED_BYTES } from './command-screen';
import type { LaneOptions } from './fast-lane';
import { goodbye } from './goodbye';
import { InjectedCommands } from './injected';
import { LanePlugins } from './lane-plugins';
import type { CdpMethod, CdpResult, CdpSendParams } from '../../lib/cdp/protocol';
import type { CdpMessage, PipelinePlugin } from './plugin';
import { CLIENT_ENDED, CLOSE_GRACE_MS, farewell, providerOutcome, type Relay, type RelayOutcome, type RelayStats } from './types';

export { INJECTED_ID_BASE, mayBeInjectedReply, type CdpMessage, type PipelinePlugin, type PluginContext } from './plugin';

/** How long a plugin's beforeRelease may hold the provider's browser after the client left. */
export const RELEASE_LIMIT_MS = 15_000;

/** One direction of the relay. */
interface Side {
  from: Duplex;
  to: Duplex;
  reader: FrameReader;
  /** Frames of a message held until its last frame, because it is to be read. */
  held: Frame[];
  /** A message's first frames went out and its last has not: nothing may be put in between. */
  midMessage: boolean;
  /** The close frame this side's sender sent, once it has passed. */
  close: CloseInfo | null;
}

export class PipelineLane implements Relay {
  private counters = { bytesIn: 0, bytesOut: 0, messages: 0, lastActivity: Date.now() };
  private ended = false;
  private closing: RelayOutcome | null = null;
  private readonly plugins: LanePlugins;
  private readonly up: Side;
  private readonly down: Side;
  /** The plugins' own commands to the browser. */
  private readonly injected: InjectedCommands;
  private graceTimer: NodeJS.Timeout | null = null;
  /** Whether the client's close frame came after the provider's (then the provider ended the session). */
  private answeredProvider = false;
  /** The client is gone and plugins are finishing with the browser (beforeRelease). */
  private releasing = false;
  private upstreamGone = false;
  /** The client's CDP sessions, told why when the service ends the session (goodbye.ts). */
  private readonly attached = new AttachedSessions();

  /** `clientHead` and `upstreamHead` are frame bytes each side sent along with its handshake. */
  constructor(
    private readonly client: Duplex,
    clientHead: Buffer,
    private readonly upstream: Duplex,
    upstreamHead: Buffer,
    sessionId: string,
    plugins: PipelinePlugin[],
    private readonly onEnd: (outcome: RelayOutcome) => void,
    private readonly options: LaneOptions = {},
  ) {
    this.up = { from: client, to: upstream, reader: new FrameReader(), held: [], midMessage: false, close: null };
    this.injected = new InjectedCommands(
      (frame) => upstream.write(frame),
      () => this.up.midMessage,
    );
    this.plugins = new LanePlugins(plugins, {
      sessionId,
      send: (method, params, cdpSessionId) => this.inject(method, params, cdpSessionId),
      forward: (message) => this.forward(message),
    });
    this.down = { from: upstream, to: client, reader: new FrameReader(), held: [], midMessage: false, close: null };

    client.on('data', (chunk: Buffer) => this.receive(this.up, chunk));
    upstream.on('data', (chunk: Buffer) => this.receive(this.down, chunk));
    // The session ends as soon as the client is gone (a FIN, a reset, or a close frame the
    // provider leaves unanswered), whatever the provider does: see fast-lane.ts.
    for (const event of ['end', 'close', 'error'] as const) {
      client.on(event, () => this.finish(this.clientEnd(), 'client'));
      upstream.on(event, () => {
        this.upstreamGone = true;
        this.finish(this.up.close && !this.answeredProvider ? CLIENT_ENDED : providerOutcome(this.down.close, this.options.peer), 'upstream');
      });
    }
    this.plugins.start();
    if (clientHead.length > 0) this.receive(this.up, clientHead);
    if (upstreamHead.length > 0) this.receive(this.down, upstreamHead);
    upstream.resume();
    client.resume();
    if (client.readableEnded || client.destroyed) this.finish(CLIENT_ENDED, 'client');
  }

  /** The client's end: its own, unless its close frame only answered the provider's (see fast-lane.ts). */
  private clientEnd(): RelayOutcome {
    return this.answeredProvider ? providerOutcome(this.down.close, this.options.peer) : CLIENT_ENDED;
  }

  get stats(): RelayStats {
    return { ...this.counters };
  }

  close(code: number, reason: string, outcome: RelayOutcome): void {
    if (this.ended || this.closing) return;
    this.closing = outcome;
    if (this.plugins.holdsBrowser && !this.releasing && !this.upstreamGone) {
      this.endClient(code, reason, true);
      this.release(outcome);
      return;
    }
    this.upstream.removeAllListeners('data');
    this.endClient(code, reason, true);
    this.upstream.destroy();
  }

  /**
   * Ends the client's connection, with a close frame of ours when one may go in (and, when the
   * service ends the session, the Inspector.detached before it: goodbye.ts).
   */
  private endClient(code: number, reason: string, announce = false): void {
    const client = this.client;
    if (client.destroyed) return;
    // Frames reach the client whole, so ours may always go in between two of them (the event not
    // inside a fragmented message); and only one close frame per direction.
    if (!this.down.close && !client.writableEnded) client.write(goodbye(code, reason, announce && !this.down.midMessage, this.attached.list));
    if (!client.writableEnded) client.end();
    client.resume();
    setTimeout(() => client.destroy(), 1_000).unref();
  }

  private forward(message: CdpMessage): void {
    if (!this.ended) this.injected.forward(message);
  }

  private inject<M extends CdpMethod>(method: M, params?: CdpSendParams<M>, cdpSessionId?: string): Promise<CdpResult<M>> {
    if (this.ended || (this.closing && !this.releasing)) return Promise.reject(new Error('session ended'));
    return this.injected.send(method, params, cdpSessionId);
  }

  private receive(side: Side, chunk: Buffer): void {
    this.counters.lastActivity = Date.now();
    if (side === this.up) this.counters.bytesIn += chunk.length;
    const frames = side.reader.push(chunk);
    if (frames.length === 0) return;
    if (frames.length === 1) this.relayFrame(side, frames[0]!);
    else {
      // Everything this chunk completes leaves in one write.
      side.to.cork();
      for (const frame of frames) this.relayFrame(side, frame);
      side.to.uncork();
    }
    if (side.to.writableNeedDrain && !side.from.isPaused()) {
      side.from.pause();
      side.to.once('drain', () => side.from.resume());
    }
  }

  private relayFrame(side: Side, frame: Frame): void {
    if (frame.opcode >= OP_CLOSE) {
      if (frame.opcode === OP_CLOSE && side === this.up && this.plugins.holdsBrowser) {
        // The browser must outlive the client's goodbye until the plugins are done with it.
        side.close = parseClosePayload(payloadOf(frame));
        this.answeredProvider = this.down.close !== null;
        this.finish(this.clientEnd(), 'client');
        return;
      }
      // Control frames may stand between the frames of a message.
      this.send(side, frame);
      if (frame.opcode === OP_CLOSE) {
        side.close = parseClosePayload(payloadOf(frame));
        if (side === this.up) this.answeredProvider = this.down.close !== null;
        if (side === this.up && !this.graceTimer && !this.ended) {
          this.graceTimer = setTimeout(() => this.finish(this.clientEnd(), 'client'), this.options.closeGraceMs ?? CLOSE_GRACE_MS);
          this.graceTimer.unref();
        }
      }
      return;
    }
    if (side === this.down && frame.fin && frame.opcode === OP_TEXT && side.held.length === 0 && frame.payloadLength <= LARGEST_WATCHED_BYTES)
      this.attached.seen(payloadOf(frame));
    const reads = side === this.up ? this.plugins.readsClient && !this.releasing : this.plugins.readsProvider || this.injected.waiting;
    if (!reads && side.held.length === 0) {
      this.send(side, frame);
      side.midMessage = !frame.fin;
      if (frame.fin) this.messageRelayed(side);
      return;
    }
    side.held.push(frame);
    if (!frame.fin) return;
    const frames = side.held;
    side.held = [];
    if (frames[0]!.opcode === OP_TEXT && this.consumed(side, frames)) return;
    for (const f of frames) this.send(side, f);
    side.midMessage = false;
    this.messageRelayed(side);
  }

  /** Reads a whole text message; true when it stops here (an injected reply, or a plugin dropped it). */
  private consumed(side: Side, frames: Frame[]): boolean {
    const payload = frames.length === 1 ? payloadOf(frames[0]!) : Buffer.concat(frames.map(payloadOf));
    // A provider message nobody wants read passes unparsed (while no injected reply is due).
    if (side === this.down && this.plugins.skipsProvider(payload, this.injected.waiting)) return this.releasing;
    if (side === this.up && this.plugins.skipsClient(payload)) return false;
    let message: CdpMessage;
    try {
      message = JSON.parse(payload.toString('utf8')) as CdpMessage;
    } catch {
      return false; // not CDP: pass it on untouched
    }
    if (side === this.down) {
      if (this.injected.settle(message) || this.plugins.dropsProvider(message)) return true;
      return this.releasing; // the client is gone: nothing more goes its way
    }
    return this.plugins.dropsClient(message);
  }

  private send(side: Side, frame: Frame): void {
    if (side === this.down && this.releasing) return; // the client is gone
    if (side === this.down) this.counters.bytesOut += frame.bytes.length;
    side.to.write(frame.bytes);
  }

  private messageRelayed(side: Side): void {
    this.counters.messages++;
    if (side === this.up) this.injected.flush();
  }

  private finish(outcome: RelayOutcome, side: 'client' | 'upstream'): void {
    if (this.ended) return;
    if (this.releasing) {
      // The browser went away while plugins were finishing with it: their commands fail now.
      if (side === 'upstream') this.injected.rejectAll();
      return;
    }
    if (side === 'client' && this.plugins.holdsBrowser && !this.upstreamGone) {
      const words = farewell('client', this.up.close, outcome);
      if (words) this.endClient(words.code, words.reason);
      else this.client.destroy();
      this.release(outcome);
      return;
    }
    this.finalize(outcome, side);
  }

  /** The client is gone, the browser not yet: plugins finish with it (bounded), then the session ends. */
  private release(outcome: RelayOutcome): void {
    this.releasing = true;
    this.plugins.clientGone();
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.client.removeAllListeners('data');
    this.plugins.release(this.options.releaseLimitMs ?? RELEASE_LIMIT_MS, () => this.finalize(outcome, 'client'));
  }

  private finalize(outcome: RelayOutcome, side: 'client' | 'upstream'): void {
    if (this.ended) return;
    this.ended = true;
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.injected.rejectAll();
    this.upstream.removeAllListeners('data');
    this.upstream.destroy();
    const final = this.closing ?? outcome;
    if (!this.closing && !this.releasing) {
      const words = farewell(side, this.up.close, final);
      if (words) this.endClient(words.code, words.reason);
      else this.client.destroy();
    }
    this.plugins.clientGone();
    this.plugins.end(final);
    this.onEnd(final);
  }
}
