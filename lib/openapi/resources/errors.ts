// The error bodies: the API's envelope (lib/api/errors.ts), the billing endpoints' variant and the
// data API's. The codes are the table of lib/api/errors.ts; each has its meaning here, which the
// document lists under every response that can carry it.
import { z } from 'zod';
import { errorStatus, type ErrorCode } from '../../api/errors';
import { named } from './common';

const CODES = Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]];

/** Why a code is answered (docs/api.md, Errors, and docs/api-errors.md). */
export const ERROR_MEANINGS: Record<ErrorCode, string> = {
  validation_error: 'the body, the query or a path parameter is invalid; `details` names each field',
  unauthenticated: 'no credential, or a wrong, revoked or rotated-away one (a router key is just a bad token here)',
  provider_rejected_key: "the vendor refused the key-based provider's API key",
  fair_use_limit_reached: 'over 100 routers, 500 profiles, 100 live router keys, 100 webhooks or 1,000 members in a workspace',
  cookie_required: 'this call needs a signed-in dashboard session, not a bearer',
  forbidden: "the caller's role may not do this (or the caller is not the instance operator), or a cross-site request with a dashboard cookie",
  not_a_member: '`X-Workspace-Id` names a workspace the user is not in',
  not_found: 'missing, or in another workspace (the two are indistinguishable)',
  method_not_allowed: 'the route does not serve this method; `Allow` lists those it serves',
  conflict: 'a slug, e-mail or other identifier already taken, or a state that does not allow the call',
  last_router: "deleting a workspace's only router",
  limit_reached: 'an eleventh live access token',
  workspaces_have_other_members: 'account deletion while an owned workspace has other members',
  not_complete: 'the recording is still being written',
  not_ready: "the recording's MP4 is not ready (`mp4Status` is not `ready`, or its file is gone)",
  trace_in_progress: 'the trace is still being written (with `Retry-After: 10`)',
  invitation_expired: 'the invitation link has expired',
  payload_too_large: 'the body is over the limit (1 MB; 30 MB for profile create and import), or a profile over 10 MB',
  profile_storage_cap_exceeded: "the workspace's profiles would pass 500 MB",
  range_not_satisfiable: 'the `Range` lies wholly outside the file (with `Content-Range: bytes */<size>`)',
  unsupported_media_type: 'a body that is not JSON sent to an endpoint that takes JSON',
  rate_limited: 'over the daily cap of bearer calls, or another rate (with `Retry-After`)',
  internal_error: 'something failed on the server; the message carries a request id',
  provider_unreachable: 'the provider or its vendor could not be reached, or failed its test',
  payment_processor_unavailable: 'the payment processor could not be reached or refused the checkout',
  provider_calibrating: 'a managed provider is still starting (with `Retry-After`)',
};

export const fieldIssue = named(
  'FieldIssue',
  z.object({
    path: z.string().describe('dotted: `maxConcurrent`, `headers.X-A`, `events.1`; `body` or `query` for the input as a whole'),
    message: z.string(),
  }),
  {
    example: { path: 'name', message: 'expected a string, got number' },
  },
);

export const apiError = named(
  'Error',
  z.object({
    ok: z.literal(false),
    error: z.object({
      code: z.enum(CODES),
      message: z.string().describe('one readable line; for `validation_error` the `path: message` pairs joined with `; `'),
      details: z.array(fieldIssue).max(20).optional(),
    }),
  }),
  {
    description: 'Every control-plane failure (docs/api-errors.md). `details` is present on a `validation_error` about named fields (at most 20).',
    example: {
      ok: false,
      error: {
        code: 'validation_error',
        message: 'name: expected a string, got number',
        details: [{ path: 'name', message: 'expected a string, got number' }],
      },
    },
  },
);

const BILLING_CODES = ['bad_request', ...CODES.filter((code) => code !== 'validation_error')] as [string, ...string[]];

export const billingError = named(
  'BillingError',
  z.object({ ok: z.literal(false), error: z.enum(BILLING_CODES), message: z.string(), details: z.array(fieldIssue).max(20).optional() }),
  {
    description: "The billing endpoints' failures: `error` is the code as a bare string, and invalid input is `bad_request`.",
    example: { ok: false, error: 'bad_request', message: 'days: must be at most 90', details: [{ path: 'days', message: 'must be at most 90' }] },
  },
);

export const dataApiError = named(
  'DataApiError',
  z.object({ success: z.literal(false), error: z.string(), details: z.array(z.object({ field: z.string(), message: z.string() })).optional() }),
  {
    description: 'A data-API failure (docs/connect.md, Data API); validation errors add `details`. A refused router key is plain text instead.',
    example: {
      success: false,
      error: 'invalid request: url: must be a fully qualified http(s) URL',
      details: [{ field: 'url', message: 'must be a fully qualified http(s) URL' }],
    },
  },
);
