// The pipeline lane speaks WebSocket messages on both ends. The provider connection is dialed
// the same way as for the fast lane (timed until its 101); ws then adopts the open socket in
// the client role (it masks what it sends, as RFC 6455 requires of clients).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import type { Upstream } from '../connect/dial-upstream';

const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export function adoptUpstream(upstream: Upstream): WebSocket {
  const ws = new (WebSocket as unknown as new (address: null, protocols: undefined, options: object) => WebSocket)(null, undefined, {});
  (ws as unknown as { _isServer: boolean })._isServer = false;
  (ws as unknown as { setSocket(s: Duplex, head: Buffer, o: object): void }).setSocket(upstream.socket, upstream.head, { maxPayload: MAX_MESSAGE_BYTES, skipUTF8Validation: true });
  upstream.socket.resume();
  return ws;
}

const extraHeaders = new WeakMap<IncomingMessage, string[]>();
export const pipelineServer = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_MESSAGE_BYTES, skipUTF8Validation: true });
pipelineServer.on('headers', (headers, req) => headers.push(...(extraHeaders.get(req) ?? [])));

/** Completes the client's handshake (with our session headers) and yields its WebSocket. */
export function acceptClient(req: IncomingMessage, socket: Duplex, head: Buffer, headers: string[]): Promise<WebSocket> {
  extraHeaders.set(req, headers);
  return new Promise((resolve) => pipelineServer.handleUpgrade(req, socket, head, resolve));
}
