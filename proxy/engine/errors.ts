// The engine's one error type. Codes name what happened, not an HTTP status: the hosted proxy
// and the gateway word and number their refusals differently (docs/connect.md, docs/gateway.md).

export type EngineErrorCode =
  /** the router has no (enabled) providers — connect: 400 */
  | 'no_providers'
  /** the request's predicate (e.g. profile rules) excludes every provider — connect: 400 */
  | 'none_eligible'
  /** the pinned id/slug is not on the router — connect: 400 */
  | 'pinned_not_found'
  /** the pinned provider is cooling down, unhealthy or full; never queues — connect: 503 */
  | 'pinned_unavailable'
  /** nothing free and the queue is disabled (queueMaxSize 0 or queueTimeoutMs 0); see `reason` */
  | 'no_free_provider'
  /** nothing free and the queue already holds queueMaxSize waiters — connect: 503 */
  | 'queue_full'
  /** waited queueTimeoutMs without a slot — connect: 429; gateway: 503 + `queue.timeout` */
  | 'queue_timeout'
  /** a configuration update removed every provider this waiter could use — connect: 503 */
  | 'config_changed'
  /** the request's AbortSignal fired before a slot was handed over */
  | 'aborted'
  /** engine.close() was called (shutdown) — 503 */
  | 'closed';

/**
 * Why nothing could be routed, so the edge can pick the connect endpoint's 429 ("every eligible provider full")
 * or 503 ("no provider can take the session"):
 * - `full`: at least one eligible provider is healthy and not cooling, and all such are at their
 *   limit — capacity is the only thing in the way, so retrying later helps.
 * - `unavailable`: every eligible provider is cooling down or unhealthy.
 */
export type BlockReason = 'full' | 'unavailable';

export interface EngineErrorDetails {
  reason?: BlockReason;
  /** time spent in the queue, for queue_timeout / aborted / config_changed / closed */
  waitedMs?: number;
  /** the pinned provider, for pinned_unavailable */
  providerId?: string;
  /** why the providers are cooling down or unhealthy (their last failed dial or health check), when known */
  causes?: string[];
}

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly reason?: BlockReason;
  readonly waitedMs?: number;
  readonly providerId?: string;
  readonly causes: string[];

  constructor(code: EngineErrorCode, details: EngineErrorDetails = {}) {
    super(details.reason ? `${code} (${details.reason})` : code);
    this.name = 'EngineError';
    this.code = code;
    this.reason = details.reason;
    this.waitedMs = details.waitedMs;
    this.providerId = details.providerId;
    this.causes = details.causes ?? [];
  }
}

/** " (last failure: …)" naming why the providers are out, for a refusal's text; empty when unknown. */
export function lastFailureNote(error: EngineError): string {
  return error.causes.length > 0 ? ` (last failure: ${error.causes.join('; ')})` : '';
}

export function isEngineError(e: unknown, code?: EngineErrorCode): e is EngineError {
  return e instanceof EngineError && (code === undefined || e.code === code);
}
