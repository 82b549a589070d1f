// Fast lane: after both handshakes the service pipes raw bytes both ways. No CDP parsing; byte
// and message counts come from frame headers. Backpressure is pipe()'s: a full writer pauses
// the reader, nothing is dropped.
import type { Duplex } from 'node:stream';
import { closeFrame, FrameCounter } from './frame-counter';
import type { Relay, RelayOutcome, RelayStats } from './types';

export class FastLane implements Relay {
  private readonly fromClient = new FrameCounter();
  private readonly toClient = new FrameCounter();
  private lastActivity = Date.now();
  private ended = false;
  private closing: RelayOutcome | null = null;

  /** `clientHead` and `upstreamHead` are frame bytes each side sent along with its handshake. */
  constructor(
    private readonly client: Duplex,
    clientHead: Buffer,
    private readonly upstream: Duplex,
    upstreamHead: Buffer,
    private readonly onEnd: (outcome: RelayOutcome) => void,
  ) {
    if (clientHead.length > 0) {
      this.fromClient.push(clientHead);
      upstream.write(clientHead);
    }
    if (upstreamHead.length > 0) {
      this.toClient.push(upstreamHead);
      client.write(upstreamHead);
    }
    client.on('data', (chunk: Buffer) => {
      this.fromClient.push(chunk);
      this.lastActivity = Date.now();
    });
    upstream.on('data', (chunk: Buffer) => {
      this.toClient.push(chunk);
      this.lastActivity = Date.now();
    });
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => this.finish({ state: 'closed', reason: null }, 'client'));
    upstream.on('error', () => this.finish({ state: 'errored', reason: 'provider connection error' }, 'upstream'));
    client.on('close', () => this.finish({ state: 'closed', reason: null }, 'client'));
    upstream.on('close', () =>
      this.finish(this.toClient.sawClose ? { state: 'closed', reason: null } : { state: 'errored', reason: 'the provider disconnected without closing the WebSocket' }, 'upstream'),
    );
    upstream.resume();
    client.resume();
  }

  get stats(): RelayStats {
    return { bytesIn: this.fromClient.bytes, bytesOut: this.toClient.bytes, messages: this.fromClient.messages + this.toClient.messages, lastActivity: this.lastActivity };
  }

  close(code: number, reason: string, outcome: RelayOutcome): void {
    if (this.ended || this.closing) return;
    this.closing = outcome;
    this.upstream.unpipe(this.client);
    // A close frame may only go in between two frames of the provider's stream.
    if (this.toClient.atBoundary && !this.client.destroyed) this.client.end(closeFrame(code, reason));
    else this.client.destroy();
    this.upstream.destroy();
    setTimeout(() => this.client.destroy(), 1_000).unref();
  }

  private finish(outcome: RelayOutcome, side: 'client' | 'upstream'): void {
    if (this.ended) return;
    this.ended = true;
    if (side === 'client') this.upstream.destroy();
    else if (!this.closing) this.client.end();
    this.onEnd(this.closing ?? outcome);
  }
}
