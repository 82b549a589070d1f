// The HTTP side of a WebSocket (RFC 6455 §4): checking a client's upgrade request, the accept
// value, and a refusal written on the raw socket before any upgrade (a plain-text HTTP response).
import { createHash } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

export const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
export const acceptFor = (key: string) =>
  createHash('sha1')
    .update(key + WS_GUID)
    .digest('base64');

/** Why a request cannot be upgraded to a WebSocket, or undefined when it can. */
export function invalidUpgrade(req: IncomingMessage): string | undefined {
  if (req.method !== 'GET') return 'WebSocket upgrades use GET';
  if (req.headers.upgrade?.toLowerCase() !== 'websocket') return 'Upgrade: websocket expected';
  if (req.headers['sec-websocket-version'] !== '13') return 'this endpoint takes a WebSocket upgrade (version 13)';
  const key = req.headers['sec-websocket-key'];
  // 16 random bytes, base64: 22 characters and '=='.
  if (!key || !/^[A-Za-z0-9+/]{22}==$/.test(key.trim())) return 'a valid Sec-WebSocket-Key is required';
  return undefined;
}

/** Answers an upgrade request with a plain-text HTTP error and closes the socket. */
export function writeRefusal(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  const body = `${message}\n`;
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: text/plain; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers)
      .filter(([name, value]) => !/[\r\n]/.test(name + value))
      .map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

/** The 101 that completes a client's handshake, with the extra header lines given. */
export function switchingProtocols(clientKey: string, headers: [string, string][]): string {
  const lines = ['HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${acceptFor(clientKey)}`];
  for (const [name, value] of headers) if (!/[\r\n]/.test(name + value)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Bytes a client may send before its 101 (a pipelined first message); past this it is cut. */
const MAX_EARLY_BYTES = 1024 * 1024;

/**
 * Watches an upgrade request's socket while its session is being set up (routing, dialling,
 * launching a browser): a paused socket notices neither a FIN nor a reset, so it is read, bytes
 * the client pipelines are kept for the relay, and `onGone` runs when the client goes away.
 * `stop()` ends the watch and returns the kept bytes (to go after the handshake's own head).
 */
export function watchPending(socket: Duplex, onGone: () => void): { stop(): Buffer } {
  const early: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_EARLY_BYTES) return void socket.destroy();
    early.push(chunk);
  };
  socket.on('data', onData);
  socket.on('end', onGone);
  socket.on('close', onGone);
  socket.on('error', onGone);
  if (socket.readableEnded || socket.destroyed) queueMicrotask(onGone);
  return {
    stop() {
      socket.off('data', onData);
      socket.off('end', onGone);
      socket.off('close', onGone);
      socket.off('error', onGone);
      socket.pause();
      return early.length === 0 ? Buffer.alloc(0) : Buffer.concat(early);
    },
  };
}

/** A request header as one string (repeated headers joined as HTTP joins them), or undefined. */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
