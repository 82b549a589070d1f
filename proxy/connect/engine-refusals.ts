// What a connect is told when the routing engine cannot give it a provider: the status and the
// text for each engine error, naming the pinned provider or the profile where they are the cause.
import { lastFailureNote, type EngineError } from '../engine';
import { Refusal } from './refuse';

/** The profile a connect asked for, as far as the refusal names it. */
interface ProfileRequest {
  readOnly: boolean;
  profile: { slug: string };
}

export function refusalFor(error: EngineError, pinned: string | null, profile: ProfileRequest | null = null): Refusal {
  switch (error.code) {
    case 'no_providers':
      return new Refusal(400, 'this router has no enabled providers');
    case 'pinned_not_found':
      return new Refusal(400, `provider "${pinned}" is not on this router`);
    case 'none_eligible':
      if (profile && !profile.readOnly) return new Refusal(400, `no provider on this router can save to profile "${profile.profile.slug}": a managed provider (such as the local pool) saves any profile, any other provider only the profile it is pinned to; or connect with readOnly=1`);
      if (pinned) return new Refusal(400, `provider "${pinned}" is pinned to ${profile ? 'another profile' : 'a profile'}: only that profile's sessions go there`);
      if (profile) return new Refusal(400, `every provider on this router is pinned to another profile than "${profile.profile.slug}"`);
      return new Refusal(400, 'no provider on this router can take this session (every provider is pinned to a profile; connect with profile=)');
    case 'pinned_unavailable':
      return new Refusal(503, `provider "${pinned}" is cooling down, unhealthy or full${lastFailureNote(error)}; retry later or connect without provider=`);
    case 'queue_timeout':
      return new Refusal(429, `every eligible provider stayed busy for ${error.waitedMs ?? 0} ms (the router's queue timeout); retry later`, { 'Retry-After': '5' });
    case 'queue_full':
      return new Refusal(503, "the router's queue is full; retry later");
    case 'no_free_provider':
      return error.reason === 'full'
        ? new Refusal(429, 'every eligible provider is at its concurrency limit and the queue is off; retry later', { 'Retry-After': '5' })
        : new Refusal(503, `no provider can take the session now (cooling down or unhealthy)${lastFailureNote(error)}; retry later`);
    case 'config_changed':
      return new Refusal(503, 'the router settings changed while the session was starting; retry');
    default:
      return new Refusal(503, 'the router cannot take sessions right now; retry later');
  }
}

