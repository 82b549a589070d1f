// Test fixtures for the lanes without handshakes (not part of the public surface): a lane only
// needs the two raw streams, so a loopback TCP pair stands for each side, and the far end of the
// client's pair reads what the client would.
import net from 'node:net';
import { FrameReader, payloadOf, type Frame } from '../websocket/frames';
import { FastLane } from './fast-lane';
import { PipelineLane } from './pipeline-lane';
import type { Relay, RelayOutcome } from './types';

export type LaneName = 'fast' | 'pipeline';

/** Two connected loopback sockets. */
export async function socketPair(): Promise<[net.Socket, net.Socket]> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const accepted = new Promise<net.Socket>((r) => server.once('connection', r));
  const near = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
  const far = await accepted;
  await new Promise((r) => (near.connecting ? near.once('connect', r) : r(null)));
  server.close();
  for (const s of [near, far]) s.on('error', () => {});
  return [near, far];
}

/** What the client end received, as whole frames, and when its connection ended. */
export interface ClientView {
  socket: net.Socket;
  frames: Frame[];
  /** Bytes after the last whole frame (a frame cut off by the end). */
  rest: () => Buffer;
  /** Resolves when the relay ended the client's connection (its FIN or a reset). */
  gone: Promise<void>;
  /** Resolves once `check` holds after the client's bytes so far, checked as each chunk arrives. */
  received(check: () => boolean, what: string, ms?: number): Promise<void>;
}

function clientView(socket: net.Socket): ClientView {
  const reader = new FrameReader();
  const frames: Frame[] = [];
  socket.on('data', (chunk: Buffer) => frames.push(...reader.push(chunk)));
  const gone = new Promise<void>((r) => {
    socket.once('end', () => r());
    socket.once('close', () => r());
  });
  const received = (check: () => boolean, what: string, ms = 2_000) =>
    new Promise<void>((resolve, reject) => {
      if (check()) return resolve();
      const onData = () => {
        if (!check()) return;
        clearTimeout(timer);
        socket.off('data', onData);
        resolve();
      };
      // Listened to after the reader's own listener, so a chunk is counted before the check.
      socket.on('data', onData);
      const timer = setTimeout(() => (socket.off('data', onData), reject(new Error(`the client never got ${what} within ${ms} ms`))), ms);
    });
  return { socket, frames, rest: () => reader.rest(), gone, received };
}

export interface LaneRig {
  relay: Relay;
  client: ClientView;
  /** The provider's end: write frames here to send them toward the client. */
  provider: net.Socket;
  ended: Promise<RelayOutcome>;
  dispose(): void;
}

/** A lane of either kind between a client and a provider end, both over loopback sockets. */
export async function laneRig(lane: LaneName): Promise<LaneRig> {
  const [clientEnd, clientSide] = await socketPair();
  const [providerSide, providerEnd] = await socketPair();
  let done!: (o: RelayOutcome) => void;
  const ended = new Promise<RelayOutcome>((r) => (done = r));
  const empty = Buffer.alloc(0);
  const relay =
    lane === 'fast' ? new FastLane(clientSide, empty, providerSide, empty, done) : new PipelineLane(clientSide, empty, providerSide, empty, 'rig', [], done);
  const client = clientView(clientEnd);
  return { relay, client, provider: providerEnd, ended, dispose: () => [clientEnd, clientSide, providerSide, providerEnd].forEach((s) => s.destroy()) };
}

/** Resolves once the client has received `count` whole frames (or the deadline passes). */
export async function framesArrive(client: ClientView, count: number, ms = 2_000): Promise<Frame[]> {
  await client.received(() => client.frames.length >= count, `${count} frames`, ms);
  return client.frames;
}

/** A data frame's text, or a close frame's code and reason, for asserting on what arrived. */
export function describe(frame: Frame): { text: string } | { code: number; reason: string } | { opcode: number } {
  const payload = payloadOf(frame);
  if (frame.opcode === 0x8) return { code: payload.readUInt16BE(0), reason: payload.subarray(2).toString('utf8') };
  if (frame.opcode <= 0x2) return { text: payload.toString('utf8') };
  return { opcode: frame.opcode };
}
