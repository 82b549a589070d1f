// What each connect edge answers when the routing engine cannot give it a provider, one table per
// edge, side by side: the hosted /v1/connect (plain-text refusals before the upgrade,
// docs/connect.md "Refusals"), the data API (JSON errors, docs/connect.md "Data API") and the
// gateway (JSON `{ error }`, docs/gateway.md "Connect"). Every engine error code has a line in
// each; the edge wraps the answer in its own error type.
import { lastFailureNote, type EngineError, type EngineErrorCode } from '../engine';

export interface Answer {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** What the request asked for, as far as a refusal names it. */
export interface Asked {
  /** The provider the request pinned (`provider=`), if any. */
  pinned?: string | null;
  /** The profile a hosted connect asked for. */
  profile?: { slug: string; readOnly: boolean } | null;
}

type Table = Record<EngineErrorCode, (error: EngineError, asked: Asked) => Answer>;

/** How long a caller should wait after a 429 from the queue (connect and data API alike). */
export const QUEUE_RETRY_AFTER_S = '5';
const retryAfter = { 'Retry-After': QUEUE_RETRY_AFTER_S };

export const CONNECT_REFUSALS: Table = {
  no_providers: () => ({ status: 400, message: 'this router has no enabled providers' }),
  pinned_not_found: (_, { pinned }) => ({ status: 400, message: `provider "${pinned}" is not on this router` }),
  none_eligible: (_, { pinned, profile }) => ({ status: 400, message: noneEligible(pinned ?? null, profile ?? null) }),
  pinned_unavailable: (error, { pinned }) => ({
    status: 503,
    message: `provider "${pinned}" is cooling down, unhealthy or full${lastFailureNote(error)}; retry later or connect without provider=`,
  }),
  queue_timeout: (error) => ({
    status: 429,
    message: `every eligible provider stayed busy for ${error.waitedMs ?? 0} ms (the router's queue timeout); retry later`,
    headers: retryAfter,
  }),
  queue_full: () => ({ status: 503, message: "the router's queue is full; retry later" }),
  no_free_provider: (error) =>
    error.reason === 'full'
      ? { status: 429, message: 'every eligible provider is at its concurrency limit and the queue is off; retry later', headers: retryAfter }
      : { status: 503, message: `no provider can take the session now (cooling down or unhealthy)${lastFailureNote(error)}; retry later` },
  config_changed: () => ({ status: 503, message: 'the router settings changed while the session was starting; retry' }),
  aborted: () => ({ status: 503, message: 'the router cannot take sessions right now; retry later' }),
  closed: () => ({ status: 503, message: 'the router cannot take sessions right now; retry later' }),
};

export const DATA_API_REFUSALS: Table = {
  no_providers: () => ({ status: 400, message: 'this router has no enabled providers; add one in the dashboard' }),
  pinned_not_found: (_, { pinned }) => ({ status: 400, message: `provider "${pinned}" is not on this router` }),
  none_eligible: () => ({ status: 400, message: 'no provider on this router can take this call' }),
  pinned_unavailable: (error, { pinned }) => ({
    status: 503,
    message: `provider "${pinned}" is ${error.reason === 'full' ? 'full' : 'cooling down or unhealthy'}${lastFailureNote(error)}; retry later or call without provider`,
  }),
  queue_timeout: (error) => ({
    status: 429,
    message: `every eligible provider stayed busy for ${error.waitedMs ?? 0} ms (the router's queue timeout); retry later`,
    headers: retryAfter,
  }),
  queue_full: () => ({ status: 503, message: "the router's queue is full; retry later" }),
  // docs/connect.md lists "full" among the data API's 503s (only a queue timeout is a 429).
  no_free_provider: (error) => ({
    status: 503,
    message:
      error.reason === 'full'
        ? 'every eligible provider is at its concurrency limit and the queue is off; retry later'
        : `no provider is available (cooling down or unhealthy)${lastFailureNote(error)}; retry later`,
  }),
  config_changed: () => ({ status: 503, message: 'the router settings changed while the call waited; retry' }),
  aborted: () => ({ status: 503, message: 'the router cannot take calls right now; retry later' }),
  closed: () => ({ status: 503, message: 'the router cannot take calls right now; retry later' }),
};

/** The gateway's one answer when no provider can take the connection (docs/gateway.md). */
export const ALL_UNAVAILABLE = 'All providers unavailable';
const allUnavailable = () => ({ status: 503, message: ALL_UNAVAILABLE });

export const GATEWAY_REFUSALS: Table = {
  no_providers: allUnavailable,
  pinned_not_found: (_, { pinned }) => ({ status: 400, message: `Unknown provider "${pinned}"` }),
  none_eligible: allUnavailable,
  pinned_unavailable: (_, { pinned }) => ({ status: 503, message: `Provider "${pinned}" unavailable: cooling down or at its maxConcurrent` }),
  queue_timeout: allUnavailable,
  queue_full: allUnavailable,
  no_free_provider: allUnavailable,
  config_changed: allUnavailable,
  aborted: allUnavailable,
  closed: () => ({ status: 503, message: 'the gateway is shutting down' }),
};

function noneEligible(pinned: string | null, profile: Asked['profile']): string {
  if (profile && !profile.readOnly)
    return `no provider on this router can save to profile "${profile.slug}": a managed provider (such as the local pool) saves any profile, any other provider only the profile it is pinned to; or connect with readOnly=1`;
  if (pinned) return `provider "${pinned}" is pinned to ${profile ? 'another profile' : 'a profile'}: only that profile's sessions go there`;
  if (profile) return `every provider on this router is pinned to another profile than "${profile.slug}"`;
  return 'no provider on this router can take this session (every provider is pinned to a profile; connect with profile=)';
}
