// Plain-text and JSON answers of the proxy's HTTP servers (the connect server's HTTP routes, the
// data API, MCP, the gateway's API and the pool). Refusals of an upgrade are written by
// proxy/websocket/handshake.ts.
import type { ServerResponse } from 'node:http';
import type { Logger } from '../../lib/log';

export function text(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers }).end(`${message}\n`);
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers }).end(JSON.stringify(body));
}

export interface HandlerFailure {
  log: Logger;
  /** What failed, in the log line ("status", "mcp request"). */
  what: string;
  fields?: Record<string, unknown>;
  /** The 500 in the route's own form; plain text by default. */
  answer?: (res: ServerResponse) => void;
}

/**
 * Runs a route's handler: a failure is logged and answered 500 when nothing was sent yet; a
 * response already under way is cut (its client sees it end early rather than wait).
 */
export function guarded(res: ServerResponse, work: Promise<void>, failure: HandlerFailure): void {
  void work.catch((err: Error) => {
    failure.log.error({ err: err.message, ...failure.fields }, `${failure.what} failed`);
    if (!res.headersSent) (failure.answer ?? ((r) => text(r, 500, 'internal error')))(res);
    else if (!res.writableEnded) res.destroy();
  });
}
