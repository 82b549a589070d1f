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
  rate_limited: 429,
  internal_error: 500,
  provider_unreachable: 502, // the provider or its vendor could not be reached, or failed its test
  provider_calibrating: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = errorStatus[code];
  }
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
