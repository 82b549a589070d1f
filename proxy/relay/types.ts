// What every relay lane reports to the session that owns it.

export interface RelayStats {
  /** Bytes received from the client (into the service). */
  bytesIn: number;
  /** Bytes sent to the client. */
  bytesOut: number;
  messages: number;
  lastActivity: number;
}

export interface RelayOutcome {
  state: 'closed' | 'errored';
  reason: string | null;
}

export interface Relay {
  readonly stats: RelayStats;
  /** Ends both sides; the outcome is reported through `onEnd` once. */
  close(code: number, reason: string, outcome: RelayOutcome): void;
}

/** The outcome reason of a session closed through POST /v1/sessions/:id/close. */
export const CONTROL_PLANE_CLOSE = 'closed from the control plane';
