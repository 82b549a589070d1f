// What can go wrong talking CDP, as one error type. Every client of lib/cdp fails with a CdpError
// whose kind says what happened and whose details carry the facts; each caller words it for its
// own reader from those (the agent toolkit for a model, a provider check for the person who typed
// the address, the profile plugin for a session's log), never by matching message text.

export type CdpFailure =
  /** The browser answered the command with an error (or, for a caller's own check, a failure). */
  | 'answered'
  /** No answer within the command's deadline, or no upgrade within the handshake's. */
  | 'timeout'
  /** The connection ended: a close frame, a socket error, or closed (or released) by us. */
  | 'closed'
  /** The server answered the WebSocket upgrade with an HTTP status instead of a 101. */
  | 'refused'
  /** No connection: DNS, TCP, TLS, or the server hung up before the upgrade. */
  | 'unreachable';

export interface CdpErrorDetails {
  /** The command (answered, timeout of a command). */
  method?: string;
  /** The browser's own message (answered). */
  detail?: string;
  /** The deadline that passed (timeout). */
  timeoutMs?: number;
  /** The close frame's code and reason (closed by the other end). */
  code?: number;
  reason?: string;
  /** Closed (or released) by this side. */
  byUs?: boolean;
  /** The HTTP answer to the upgrade (refused); the body's first 2,000 characters. */
  status?: number;
  statusText?: string;
  body?: string;
  /** The socket's own error (unreachable, closed by a socket error). */
  cause?: Error & { code?: string };
}

export class CdpError extends Error {
  constructor(
    readonly kind: CdpFailure,
    message: string,
    readonly details: CdpErrorDetails = {},
  ) {
    super(message);
    this.name = 'CdpError';
  }

  /** The browser answered `method` with an error. */
  static answered(method: string, detail: string): CdpError {
    return new CdpError('answered', `${method}: ${detail}`, { method, detail });
  }

  /** `method` was not answered within `timeoutMs`. */
  static timedOut(method: string, timeoutMs: number): CdpError {
    return new CdpError('timeout', `no answer to ${method} within ${timeoutMs} ms`, { method, timeoutMs });
  }

  /** This side ended the connection (`why`: closed, released to another reader). */
  static closedByUs(why: string): CdpError {
    return new CdpError('closed', why, { byUs: true });
  }
}

/** Rejects with a `timeout` CdpError when `promise` has not settled within `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer!: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CdpError('timeout', `${what} took longer than ${ms} ms`, { timeoutMs: ms })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
