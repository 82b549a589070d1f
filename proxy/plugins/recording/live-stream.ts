// GET /internal/sessions/:id/live: a recorded session's pages as they change, for the dashboard
// (the web process checks the viewer's role and passes the stream on). Server-Sent Events:
// `tabs` first and on every change, then `frame` (base64 JPEG) per new frame, `end` when the
// session or its recording stops. A viewer that reads slower than frames come misses frames
// (the next one replaces them); it never slows the session down.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouterKeyAuth } from '../../auth/authenticate';
import type { SessionRegistry } from '../../sessions/registry';
import { internalCaller } from '../../status';
import { text } from '../../http/respond';
import { liveRecordings, type LiveEvent } from './live';

/** A viewer with more than this unsent skips frames until it catches up. */
const VIEWER_BACKLOG_BYTES = 1024 * 1024;
const HEARTBEAT_MS = 15_000;

export function handleLiveStream(req: IncomingMessage, res: ServerResponse, sessionId: string, deps: { keys: RouterKeyAuth; sessions: SessionRegistry }): void {
  if (!internalCaller(req, res, deps.keys)) return;
  const source = liveRecordings.get(sessionId);
  if (!source) {
    if (deps.sessions.has(sessionId)) return text(res, 409, 'the session is not recorded: live view shows sessions opened with session_record=true');
    return text(res, 404, 'no such session is running on this proxy');
  }
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no', Connection: 'keep-alive' });
  res.socket?.setNoDelay(true);
  let stop = () => {};
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const close = () => {
    clearInterval(heartbeat);
    stop();
    if (!res.writableEnded) res.end();
  };
  const send = (event: LiveEvent) => {
    if (res.writableEnded) return;
    if (event.type === 'frame' && res.writableLength > VIEWER_BACKLOG_BYTES) return;
    const { type, ...data } = event;
    res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
    if (type === 'end') setImmediate(close);
  };
  stop = source.subscribe(send);
  req.on('close', close);
  res.on('error', close);
}
