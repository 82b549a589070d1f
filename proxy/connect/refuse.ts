// Refusals happen before the WebSocket opens: a plain-text HTTP response on the raw socket.
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';

export class Refusal extends Error {
  constructor(readonly status: number, message: string, readonly headers: Record<string, string> = {}) {
    super(message);
  }
}

export function writeRefusal(socket: Duplex, refusal: Refusal): void {
  if (socket.destroyed) return;
  const body = `${refusal.message}\n`;
  const extra = Object.entries(refusal.headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}\r\n` +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `${extra}Connection: close\r\n\r\n${body}`,
  );
}
