// What every relay lane reports to the session that owns it: the session's traffic and outcome as
// its row records them (lib/sessions/session-writer.ts), and when it last carried a message.
import type { SessionOutcome, SessionTraffic } from '../../lib/sessions/session-writer';

export interface RelayStats extends SessionTraffic {
  lastActivity: number;
}

export type RelayOutcome = SessionOutcome;

export interface Relay {
  readonly stats: RelayStats;
  /**
   * The service ends the session: the client gets Inspector.detached and the close frame, both
   * with `reason` (goodbye.ts); the outcome is reported through `onEnd` once.
   */
  close(code: number, reason: string, outcome: RelayOutcome): void;
}

/** The outcome reason of a session closed through POST /v1/sessions/:id/close. */
export const CONTROL_PLANE_CLOSE = 'closed from the control plane';

/** How long a client's close frame waits for the provider's answer before the relay answers it. */
export const CLOSE_GRACE_MS = 500;

/**
 * What a provider's end of the WebSocket means for the session, the same in every lane: a close
 * frame with 1000 (or none, or 1005) is a normal end; any other code is an error that names the
 * code and the provider's reason (the pool closes with 1011 when its browser crashed or exited);
 * a connection dropped without a close frame is an error.
 */
export function providerOutcome(close: { code: number | null; reason: string } | null, peer: 'provider' | 'browser' = 'provider'): RelayOutcome {
  if (!close) return { state: 'errored', reason: `the ${peer} disconnected without closing the WebSocket` };
  if (close.code === null || close.code === 1000 || close.code === 1005) return { state: 'closed', reason: null };
  const reason = close.reason
    .replace(/\p{Cc}/gu, ' ')
    .trim()
    .slice(0, 200);
  return { state: 'errored', reason: `the ${peer} closed the WebSocket (${close.code}${reason ? `: ${reason}` : ''})` };
}

/** The client ended the session: a close frame, a FIN or a reset. */
export const CLIENT_ENDED: RelayOutcome = { state: 'closed', reason: null };

/**
 * How a lane ends the client's connection when the session ended by itself (not through close()):
 * a close frame the provider left unanswered is answered with the client's own code, a client that
 * left without one is just dropped (null), a provider's error is passed on as 1011 with its reason.
 */
export function farewell(
  side: 'client' | 'upstream',
  clientClose: { code: number | null } | null,
  final: RelayOutcome,
): { code: number; reason: string } | null {
  if (side === 'client') return clientClose ? { code: clientClose.code && clientClose.code !== 1005 ? clientClose.code : 1000, reason: '' } : null;
  return final.state === 'errored' ? { code: 1011, reason: final.reason ?? 'provider error' } : { code: 1000, reason: '' };
}
