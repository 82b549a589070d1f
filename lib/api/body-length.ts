// Next drops Content-Length from a route handler's Response (it cannot tell whether a body fetched
// from elsewhere was decoded on the way), so a streamed file would go out chunked, without its
// length: no download progress, and a media player gets no size from a whole-file answer. A handler
// that knows its body's exact length sets BODY_LENGTH_HEADER instead, and the web server turns it
// back into Content-Length as the head is written (scripts/web-server.ts).
import type { ServerResponse } from 'node:http';

export const BODY_LENGTH_HEADER = 'x-body-length';

export function restoreContentLength(res: ServerResponse): void {
  const writeHead = res.writeHead;
  // Every way of sending the head (an explicit writeHead, the implicit one of write/end/flushHeaders) calls res.writeHead.
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    const length = this.getHeader(BODY_LENGTH_HEADER);
    if (length !== undefined) {
      this.removeHeader(BODY_LENGTH_HEADER);
      if (/^\d+$/.test(String(length))) this.setHeader('Content-Length', String(length));
    }
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}
