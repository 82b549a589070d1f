// The one error type of the API and the one table from its code to an HTTP status.
// Handlers throw ApiError; only the wrapper (lib/api/handler.ts) writes a response.

export const errorStatus = {
  validation_error: 400,
  unauthenticated: 401,
  provider_rejected_key: 401, // the vendor refused a key-based provider's API key (verify-key, key-form add)
  fair_use_limit_reached: 402,
  cookie_required: 403,
  forbidden: 403,
  not_a_member: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  last_router: 409,
  limit_reached: 409,
  workspaces_have_other_members: 409,
  not_complete: 409,
  not_ready: 409,
  trace_in_progress: 409,
  invitation_expired: 410,
  payload_too_large: 413,
  profile_storage_cap_exceeded: 413,
  range_not_satisfiable: 416, // a video download's Range lies outside the file; carries `Content-Range: bytes */<size>`
  unsupported_media_type: 415, // a body that is not JSON sent to an endpoint that takes JSON
  rate_limited: 429,
  internal_error: 500,
  provider_unreachable: 502, // the provider or its vendor could not be reached, or failed its test
  payment_processor_unavailable: 502, // the payment processor (Stripe) could not be reached or refused a checkout (billing)
  provider_calibrating: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** One problem with one input field: `path` is dotted (`maxConcurrent`, `headers.0.name`). */
export interface FieldIssue {
  path: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Set on `validation_error`s about named fields, so clients place them without parsing `message`. */
    readonly details?: FieldIssue[],
  ) {
    super(message);
    this.status = errorStatus[code];
  }
}

/** A response reports at most this many field issues (a list of 100,000 bad items is one mistake repeated). */
export const MAX_FIELD_ISSUES = 20;

/** The one-line summary of field issues: "email: enter a valid e-mail address; role: …". */
export const summarizeIssues = (issues: readonly FieldIssue[]) => issues.map((i) => `${i.path}: ${i.message}`).join('; ');

/** A `validation_error` about fields, with `details` and the summary as its message. */
export function invalidFields(issues: FieldIssue[]): ApiError {
  const shown = issues.slice(0, MAX_FIELD_ISSUES);
  const more = issues.length - shown.length;
  return new ApiError('validation_error', summarizeIssues(shown) + (more > 0 ? `; and ${more} more` : ''), {}, shown);
}
export const invalidField = (path: string, message: string) => invalidFields([{ path, message }]);

/** The error envelope: `{ ok: false, error: { code, message, details? } }`. */
export function errorBody(error: ApiError) {
  return { ok: false as const, error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } };
}

/**
 * The billing endpoints' error body: `error` is the code as a plain string, invalid input is
 * `bad_request`; the message and field details sit beside it.
 */
export function billingErrorBody(error: ApiError) {
  const code = error.code === 'validation_error' ? 'bad_request' : error.code;
  return { ok: false as const, error: code, message: error.message, ...(error.details ? { details: error.details } : {}) };
}

export const notFound = (what = 'resource') => new ApiError('not_found', `${what} not found`);
export const forbidden = (message = 'your role does not allow this action') => new ApiError('forbidden', message);

/** Maps database errors by Prisma code (never by message text); unknown errors pass through. */
export function fromDatabaseError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'P2002') return new ApiError('conflict', 'a resource with that identifier already exists');
  if (code === 'P2025') return notFound();
  return error;
}
