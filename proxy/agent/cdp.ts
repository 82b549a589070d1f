// The agent toolkit's browser connection: the product's CDP client (lib/cdp/socket.ts) opened
// through the endpoint like any Playwright script's, and its failures worded for a model: which
// command went unanswered, why the session ended and which setting controls it.
import { CdpError } from '../../lib/cdp/errors';
import { CdpSocket } from '../../lib/cdp/socket';
import { AgentError } from './types';

/** The default deadline of a command: a browser that answers nothing for this long is stuck. */
export const COMMAND_TIMEOUT_MS = 30_000;

/** Opens the browser's WebSocket; a refusal (an HTTP status before the upgrade) is reported with its text. */
export async function openBrowser(url: string, headers: Record<string, string> = {}, timeoutMs = 120_000): Promise<CdpSocket> {
  try {
    return await CdpSocket.open(url, { headers, handshakeTimeoutMs: timeoutMs, commandTimeoutMs: COMMAND_TIMEOUT_MS });
  } catch (error) {
    if (!(error instanceof CdpError)) throw error;
    const { status, statusText, body, cause } = error.details;
    throw new AgentError(
      'browser',
      `no browser could be opened: ${error.kind === 'refused' ? `${status} ${body?.trim() || statusText}` : (cause?.message ?? error.message)}`,
    );
  }
}

/**
 * The toolkit's error for a failure of its browser connection: a command that went unanswered, or
 * the session's end. Anything else (a command the browser answered with an error) is returned as
 * it is: the toolkit's steps decide what that means.
 */
export function agentError(error: unknown): unknown {
  if (!(error instanceof CdpError)) return error;
  const { method, timeoutMs } = error.details;
  if (error.kind === 'timeout' && method && timeoutMs !== undefined)
    return new AgentError('timeout', `the browser did not answer ${method} within ${Math.round(timeoutMs / 1000)} s`);
  if (error.kind === 'closed') return new AgentError('closed', closedWords(error));
  return error;
}

/** Why the browser's connection ended, as the model reads it. */
export function closedWords(error: CdpError): string {
  const { byUs, cause, code, reason } = error.details;
  if (byUs) return 'the session was closed';
  if (cause || code === undefined) return `the browser connection failed: ${cause?.message ?? error.message}`;
  return closeWords(code, reason ?? '');
}

/**
 * Close codes a router or gateway ends a session with (docs/connect.md, "When the proxy ends a
 * session"), each with what it means when the frame carries no reason.
 */
const SERVICE_CLOSES: Readonly<Record<number, string>> = {
  4000: 'a member of the workspace closed it',
  4001: 'its router key was revoked',
  4002: 'its router key was rotated',
  4003: 'the workspace was marked for deletion',
  4004: 'the workspace was suspended',
  4005: 'the chat link was rotated or deleted',
  4008: "it was idle for the router's idle timeout (the router's sessionIdleTimeoutMs, Settings > Routing > Idle timeout)",
  4009: 'it reached the 4-hour limit of a session',
  1001: 'the server it went through is shutting down',
  1011: 'its browser failed (its provider closed with an error, or vanished)',
};

/**
 * Why the browser's WebSocket closed, as the model reads it. A router or gateway that ends a session
 * names the cause and what controls it in the close frame's reason (proxy/sessions/close-reasons.ts):
 * it is passed on whole, so the model can tell the user which setting to change.
 */
export function closeWords(code: number, reason: string): string {
  const service = SERVICE_CLOSES[code];
  if (service !== undefined) return `the browser session ended: ${reason || service}`;
  if (reason) return `the browser session ended (${code}: ${reason})`;
  return code === 1000 || code === 1005 ? 'the browser session ended' : `the browser connection closed (${code})`;
}
