// Refusals happen before the WebSocket opens: a plain-text HTTP response on the raw socket.
import type { Duplex } from 'node:stream';
import { writeRefusal as writeHttpRefusal } from '../websocket/handshake';

export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function writeRefusal(socket: Duplex, refusal: Refusal): void {
  writeHttpRefusal(socket, refusal.status, refusal.message, refusal.headers);
}
