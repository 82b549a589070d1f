// Fast lane: after both handshakes the service pipes raw bytes both ways. Byte and message counts
// come from frame headers (proxy/websocket/frames.ts); the only CDP it reads is the browser's small
// messages that name a Target attach or detach (attached-sessions.ts) or an event a screen watches,
// and those only once a cheap byte search finds the name. Backpressure is
// pipe()'s: a full writer pauses the reader, nothing is dropped. The local pool relays its
// browsers through this same class.
//
// The session ends as soon as the client is gone, whatever the provider does: a FIN or a reset
// ends it at once, and a close frame the provider does not answer within CLOSE_GRACE_MS is
// answered by the relay (an unresponsive browser must not hold a session and its slot).
import type { Duplex } from 'node:stream';
import { FrameCounter, FrameReader, serverTextFrame } from '../websocket/frames';
import { AttachedSessions } from './attached-sessions';
import { eventReader, LARGEST_WATCHED_BYTES, screenFrame, type CommandScreen } from './command-screen';
import { goodbye } from './goodbye';
import { CLIENT_ENDED, CLOSE_GRACE_MS, farewell, providerOutcome, type Relay, type RelayOutcome, type RelayStats } from './types';

export interface LaneOptions {
  /** How long a client's close frame waits for the provider's answer (CLOSE_GRACE_MS). */
  closeGraceMs?: number;
  /** What is on the other end, for the reasons reported ('provider' in the proxy, 'browser' in the pool). */
  peer?: 'provider' | 'browser';
  /** Pipeline lane: how long plugins may hold the browser after the client left (RELEASE_LIMIT_MS). */
  releaseLimitMs?: number;
  /** Fast lane: commands it answers itself or changes instead of passing them on (command-screen.ts). */
  screen?: CommandScreen;
}

export class FastLane implements Relay {
  /** Frames from the client to the provider. */
  readonly fromClient = new FrameCounter();
  /** Frames from the provider to the client. */
  readonly toClient = new FrameCounter();
  private lastActivity = Date.now();
  private ended = false;
  private closing: RelayOutcome | null = null;
  private graceTimer: NodeJS.Timeout | null = null;
  /** Whether the client's close frame came after the provider's (null: the client sent none yet). */
  private answeredProvider: boolean | null = null;
  /** The client's CDP sessions, told why when the service ends the session (goodbye.ts). */
  private readonly attached = new AttachedSessions();

  /** `clientHead` and `upstreamHead` are frame bytes each side sent along with its handshake. */
  constructor(
    private readonly client: Duplex,
    clientHead: Buffer,
    private readonly upstream: Duplex,
    upstreamHead: Buffer,
    private readonly onEnd: (outcome: RelayOutcome) => void,
    private readonly options: LaneOptions = {},
  ) {
    const screen = options.screen;
    const watched = screen?.watch && screen.watch.events.length > 0 ? eventReader(screen.watch) : null;
    this.toClient.textUpTo = LARGEST_WATCHED_BYTES;
    this.toClient.onSmallText = watched
      ? (payload) => {
          this.attached.seen(payload);
          watched(payload);
        }
      : this.attached.seen;
    if (clientHead.length > 0) this.fromClientData(clientHead);
    if (upstreamHead.length > 0) {
      this.toClient.push(upstreamHead);
      client.write(upstreamHead);
    }
    const toUpstream = screen ? this.screened(screen) : (chunk: Buffer) => upstream.write(chunk);
    if (clientHead.length > 0) toUpstream(clientHead);
    client.on('data', (chunk: Buffer) => this.fromClientData(chunk));
    upstream.on('data', (chunk: Buffer) => {
      this.toClient.push(chunk);
      this.lastActivity = Date.now();
    });
    if (screen) client.on('data', toUpstream);
    else client.pipe(upstream, { end: false });
    upstream.pipe(client, { end: false });
    // After pipe()'s own listener, so an answer of ours follows the chunk it waited for.
    if (screen) upstream.on('data', () => this.flushAnswers());
    for (const event of ['end', 'close', 'error'] as const) {
      client.on(event, () => this.finish(this.clientEnd(), 'client'));
      // A provider hanging up after the client's close frame is the end the client asked for,
      // unless that close frame only answered the provider's.
      upstream.on(event, () =>
        this.finish(
          this.fromClient.closing && this.answeredProvider !== true ? CLIENT_ENDED : providerOutcome(this.toClient.close, this.options.peer),
          'upstream',
        ),
      );
    }
    upstream.resume();
    client.resume();
    if (client.readableEnded || client.destroyed) this.finish(CLIENT_ENDED, 'client');
  }

  /** Answers to refused commands, waiting for the stream to the client to sit between two messages. */
  private readonly answers: Buffer[] = [];

  /**
   * The client's bytes to the browser frame by frame, the commands the screen refuses answered
   * instead; with pipe()'s backpressure (a full browser socket pauses the client).
   */
  private screened(screen: CommandScreen): (chunk: Buffer) => void {
    const reader = new FrameReader();
    return (chunk) => {
      if (this.ended || this.closing) return;
      const passed: Buffer[] = [];
      for (const frame of reader.push(chunk)) {
        const screened = screenFrame(frame, screen);
        if (screened === null) passed.push(frame.bytes);
        else if ('replacement' in screened) passed.push(screened.replacement);
        else this.answers.push(serverTextFrame(screened.answer));
      }
      if (passed.length > 0 && !this.upstream.write(passed.length === 1 ? passed[0]! : Buffer.concat(passed))) {
        this.client.pause();
        this.upstream.once('drain', () => this.client.resume());
      }
      this.flushAnswers();
    };
  }

  private flushAnswers(): void {
    if (this.answers.length === 0 || !this.toClient.atMessageBoundary || this.toClient.closing || this.client.writableEnded) return;
    this.client.write(Buffer.concat(this.answers.splice(0)));
  }

  get stats(): RelayStats {
    return {
      bytesIn: this.fromClient.bytes,
      bytesOut: this.toClient.bytes,
      messages: this.fromClient.messages + this.toClient.messages,
      lastActivity: this.lastActivity,
    };
  }

  close(code: number, reason: string, outcome: RelayOutcome): void {
    if (this.ended || this.closing) return;
    this.closing = outcome;
    this.upstream.unpipe(this.client);
    this.client.unpipe(this.upstream);
    this.endClient(code, reason, true);
    this.upstream.destroy();
  }

  /**
   * The client's end: its own, unless its close frame only answered the provider's (then the
   * provider ended the session, with the code it sent, whichever TCP end arrives first).
   */
  private clientEnd(): RelayOutcome {
    return this.answeredProvider ? providerOutcome(this.toClient.close, this.options.peer) : CLIENT_ENDED;
  }

  private fromClientData(chunk: Buffer): void {
    this.fromClient.push(chunk);
    this.lastActivity = Date.now();
    if (this.fromClient.closing && this.answeredProvider === null) this.answeredProvider = this.toClient.closing;
    if (this.fromClient.close && !this.graceTimer && !this.ended) {
      this.graceTimer = setTimeout(() => this.finish(this.clientEnd(), 'client'), this.options.closeGraceMs ?? CLOSE_GRACE_MS);
      this.graceTimer.unref();
    }
  }

  /**
   * Ends the client's connection, with a close frame of ours when one may go in (and, when the
   * service ends the session, the Inspector.detached before it: goodbye.ts).
   */
  private endClient(code: number, reason: string, announce = false): void {
    const client = this.client;
    if (client.destroyed) return;
    // Ours only between two frames (the event between two messages), and only one close frame
    // per direction: none after the provider's.
    if (this.toClient.atBoundary && !this.toClient.closing && !client.writableEnded)
      client.write(goodbye(code, reason, announce && this.toClient.atMessageBoundary, this.attached.list));
    if (!client.writableEnded) client.end();
    // Read (and drop) until the client's FIN; a client that never sends it is cut after a second.
    client.resume();
    setTimeout(() => client.destroy(), 1_000).unref();
  }

  private finish(outcome: RelayOutcome, side: 'client' | 'upstream'): void {
    if (this.ended) return;
    this.ended = true;
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.upstream.unpipe(this.client);
    this.client.unpipe(this.upstream);
    this.upstream.destroy();
    const final = this.closing ?? outcome;
    if (!this.closing) {
      const words = farewell(side, this.fromClient.close, final);
      if (words) this.endClient(words.code, words.reason);
      else this.client.destroy();
    }
    this.onEnd(final);
  }
}
