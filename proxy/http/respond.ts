// Plain-text and JSON answers of the proxy's HTTP servers (the connect server's HTTP routes, the
// data API, MCP, the gateway's API and the pool). Refusals of an upgrade are written by
// proxy/websocket/handshake.ts.
import type { ServerResponse } from 'node:http';

export function text(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers }).end(`${message}\n`);
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers }).end(JSON.stringify(body));
}
