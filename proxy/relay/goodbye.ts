// How a relay tells the client why the service ended its session (idle timeout, lifetime,
// revocation, a close from the control plane, shutdown): first the CDP event Inspector.detached
// with the reason, then the close frame with the code and the same reason. Playwright appends the
// close frame's reason to the error of every call in flight, so the user reads it there; raw CDP
// clients and protocol logs (DEBUG=pw:protocol) also see the event. Playwright and puppeteer
// ignore the event itself.
//
// Both go out in one write, only where they cannot corrupt the client's stream: the close frame
// between two frames (a control frame may stand between a message's fragments), the event only
// between two messages (never inside a fragmented one). Where the event may not go it is left out;
// where no frame may go, neither is sent and the connection just ends.
import { closeFrame, fitCloseReason, serverTextFrame } from '../websocket/frames';

/** The CDP event that carries the reason (browser level: no sessionId). */
export function detachedEvent(reason: string): Buffer {
  return serverTextFrame(JSON.stringify({ method: 'Inspector.detached', params: { reason } }));
}

/**
 * The bytes that end the client's stream, to be written between two frames: the close frame,
 * after the event when `withEvent` (only between two messages), both with the reason fitted to a
 * close frame's 123 bytes.
 */
export function goodbye(code: number, reason: string, withEvent: boolean): Buffer {
  const text = fitCloseReason(reason);
  const close = closeFrame(code, text);
  return withEvent ? Buffer.concat([detachedEvent(text), close]) : close;
}
