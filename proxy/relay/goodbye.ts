// How a relay tells the client why the service ended its session (idle timeout, lifetime,
// revocation, a close from the control plane, shutdown): first the CDP event Inspector.detached
// with the reason, then the close frame with the code and the same reason. Playwright appends the
// close frame's reason to the error of every call in flight, so the user reads it there; raw CDP
// clients and protocol logs (DEBUG=pw:protocol) also see the event. Playwright and puppeteer
// ignore the event itself.
//
// The event goes to the browser and to every CDP session the client still holds
// (attached-sessions.ts), each as the browser's own detach would look in that session.
//
// Both go out in one write, only where they cannot corrupt the client's stream: the close frame
// between two frames (a control frame may stand between a message's fragments), the event only
// between two messages (never inside a fragmented one). Where the event may not go it is left out;
// where no frame may go, neither is sent and the connection just ends.
import { closeFrame, fitCloseReason, serverTextFrame } from '../websocket/frames';

/** The CDP event that carries the reason: in one attached session, or at browser level (no sessionId). */
export function detachedEvent(reason: string, sessionId?: string): Buffer {
  return serverTextFrame(JSON.stringify({ method: 'Inspector.detached', params: { reason }, ...(sessionId ? { sessionId } : {}) }));
}

/**
 * The bytes that end the client's stream, to be written between two frames: the close frame,
 * after the events when `withEvent` (only between two messages; one per session in `sessions`,
 * then the browser's), all with the reason fitted to a close frame's 123 bytes.
 */
export function goodbye(code: number, reason: string, withEvent: boolean, sessions: string[] = []): Buffer {
  const text = fitCloseReason(reason);
  const close = closeFrame(code, text);
  return withEvent ? Buffer.concat([...sessions.map((id) => detachedEvent(text, id)), detachedEvent(text), close]) : close;
}
