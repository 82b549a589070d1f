// Request bodies of the proxy's HTTP servers (the data API, MCP, the gateway's API, the pool), read
// up to a limit. Past the limit the caller answers 413 at once, and the rest of the body is read and
// thrown away while the connection stays open: a socket closed with unread bytes makes TCP send a
// reset, which can reach a client that is still sending before the answer does and take it away
// (the client then sees ECONNRESET or EPIPE instead of the 413). A body that goes on for more than
// `drainLimit` bytes past the limit is not worth the wait: its connection is cut.
import type { IncomingMessage } from 'node:http';

/** How much of a too-large body is read and thrown away before its connection is cut. */
export const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

export interface BodyLimits {
  /** The most bytes a body may have. */
  limit: number;
  /** Bytes past the limit read and dropped so that the client gets the answer (DRAIN_LIMIT_BYTES). */
  drainLimit?: number;
}

/** The whole body, or null as soon as it is known to be over the limit (declared or as it arrives). */
export function readBody(req: IncomingMessage, { limit, drainLimit = DRAIN_LIMIT_BYTES }: BodyLimits): Promise<Buffer | null> {
  if (Number(req.headers['content-length'] ?? 0) > limit) {
    discardBody(req, drainLimit);
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      discardBody(req, drainLimit);
      resolve(null);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
  });
}

/**
 * Reads what is left of a refused body without keeping it, for a handler that answers before
 * reading it; cuts the connection past `drainLimit`.
 */
export function discardBody(req: IncomingMessage, drainLimit = DRAIN_LIMIT_BYTES): void {
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > drainLimit) req.socket.destroy();
  });
  req.on('error', () => {}); // a client that gives up mid-body is no error of ours
  req.resume();
}
