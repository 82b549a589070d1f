// Plain-text and JSON answers on an HTTP response (refusals of an upgrade are written by
// proxy/websocket/handshake.ts).
import type { ServerResponse } from 'node:http';

export function text(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(`${message}\n`);
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}
