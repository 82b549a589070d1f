// The CDP the profile plugin speaks to a provider's browser, in two places: before the client's
// `101` (UpstreamCdp: the upstream socket is ours alone, every message it sends is ours) and
// during the session (the pipeline lane's injected commands, events routed by the plugin). Both
// fail with lib/cdp's CdpError.
import type { Duplex } from 'node:stream';
import { CdpCommands, parseCdp } from '../../../lib/cdp/commands';
import { CdpError } from '../../../lib/cdp/errors';
import type { CdpMethod, CdpResult, CdpSendParams } from '../../../lib/cdp/protocol';
import { FrameReader, maskedTextFrame, OP_CLOSE, OP_TEXT, payloadOf, type Frame } from '../../websocket/frames';

export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

export interface Cdp {
  send<M extends CdpMethod>(method: M, params?: CdpSendParams<M>, sessionId?: string): Promise<CdpResult<M>>;
  /** Listens to every event; returns the unsubscribe. */
  onEvent(listener: (event: CdpEvent) => void): () => void;
}

/**
 * A CDP client on a freshly dialled upstream socket, used before the lane takes it over. `release()`
 * stops reading and returns the bytes of a frame not yet complete, which the lane gets as its head.
 */
export class UpstreamCdp implements Cdp {
  private readonly reader = new FrameReader();
  private readonly commands = new CdpCommands((text) => this.socket.write(maskedTextFrame(text)));
  private readonly listeners = new Set<(event: CdpEvent) => void>();
  private held: Frame[] = [];
  private readonly onData = (chunk: Buffer) => this.receive(chunk);
  private readonly onGone = () => this.commands.fail(new CdpError('closed', 'the provider closed the connection while the profile was loading'));

  constructor(
    private readonly socket: Duplex,
    head: Buffer,
  ) {
    socket.on('data', this.onData);
    socket.on('close', this.onGone);
    socket.on('end', this.onGone);
    socket.on('error', this.onGone);
    if (head.length > 0) this.receive(head);
    socket.resume();
  }

  send<M extends CdpMethod>(method: M, params: CdpSendParams<M> = {}, sessionId?: string): Promise<CdpResult<M>> {
    return this.commands.send(method, params, sessionId);
  }

  onEvent(listener: (event: CdpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hands the socket back: no more reading here; the unread bytes of a partial frame. */
  release(): Buffer {
    this.socket.pause();
    this.socket.off('data', this.onData);
    this.socket.off('close', this.onGone);
    this.socket.off('end', this.onGone);
    this.socket.off('error', this.onGone);
    this.commands.fail(CdpError.closedByUs('released'));
    return this.reader.rest();
  }

  private receive(chunk: Buffer): void {
    for (const frame of this.reader.push(chunk)) {
      if (frame.opcode === OP_CLOSE) return this.commands.fail(new CdpError('closed', 'the provider closed the WebSocket while the profile was loading'));
      if (frame.opcode > OP_CLOSE) continue; // ping/pong: a browser sends none unasked
      this.held.push(frame);
      if (!frame.fin) continue;
      const frames = this.held;
      this.held = [];
      if (frames[0]!.opcode !== OP_TEXT) continue;
      const message = parseCdp(Buffer.concat(frames.map(payloadOf)).toString('utf8'));
      if (!message || this.commands.settle(message) || !message.method) continue;
      for (const listener of this.listeners)
        listener({
          method: message.method,
          params: (message.params ?? {}) as Record<string, unknown>,
          ...(message.sessionId ? { sessionId: message.sessionId } : {}),
        });
    }
  }
}
