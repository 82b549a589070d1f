// The data API's one error type and its mapping from routing-engine errors (docs/connect.md,
// "Data API"). Handlers throw DataApiError; only handle-data-api.ts writes a response.
import { lastFailureNote, type EngineError } from '../engine';

export interface FieldIssue {
  field: string;
  message: string;
}

export class DataApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details?: FieldIssue[],
  ) {
    super(message);
  }
}

/** A 400 whose `details` name each bad field; the message lists the same. */
export function invalidRequest(details: FieldIssue[]): DataApiError {
  return new DataApiError(400, `invalid request: ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}`, {}, details);
}

/** How long a caller should wait after a 429 from the queue (same advice as the connect path). */
export const QUEUE_RETRY_AFTER_S = '5';

export function fromEngineError(error: EngineError, pinned: string | undefined): DataApiError {
  switch (error.code) {
    case 'no_providers':
      return new DataApiError(400, 'this router has no enabled providers; add one in the dashboard');
    case 'pinned_not_found':
      return new DataApiError(400, `provider "${pinned}" is not on this router`);
    case 'none_eligible':
      return new DataApiError(400, 'no provider on this router can take this call');
    case 'pinned_unavailable':
      return new DataApiError(503, `provider "${pinned}" is ${error.reason === 'full' ? 'full' : 'cooling down or unhealthy'}${lastFailureNote(error)}; retry later or call without provider`);
    case 'queue_timeout':
      return new DataApiError(429, `every eligible provider stayed busy for ${error.waitedMs ?? 0} ms (the router's queue timeout); retry later`, { 'Retry-After': QUEUE_RETRY_AFTER_S });
    case 'queue_full':
      return new DataApiError(503, "the router's queue is full; retry later");
    case 'no_free_provider':
      // docs/connect.md lists "full" among the data API's 503s (only a queue timeout is a 429).
      return new DataApiError(503, error.reason === 'full' ? 'every eligible provider is at its concurrency limit and the queue is off; retry later' : `no provider is available (cooling down or unhealthy)${lastFailureNote(error)}; retry later`);
    case 'config_changed':
      return new DataApiError(503, 'the router settings changed while the call waited; retry');
    default:
      return new DataApiError(503, 'the router cannot take calls right now; retry later');
  }
}
