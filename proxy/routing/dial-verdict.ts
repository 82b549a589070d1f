// How a WebSocket connect edge (the hosted /v1/connect and the gateway's) reads a failed attempt:
// a failed dial fails over; a provider at capacity, or a browser holding another profile's state,
// is passed by without blame. `residueNote` says what the edge does with such a browser;
// `policyUntilReset`: a refusal of the tenant egress policy keeps the provider out until its address
// changes (the hosted proxy; the gateway has no tenant policy).
import { ResidueError } from '../plugins/profile/browser-state';
import { DialError } from '../websocket/dial';
import type { Verdict } from './attempts';

export function dialVerdict(error: unknown, { residueNote, policyUntilReset }: { residueNote: string; policyUntilReset: boolean }): Verdict | null {
  if (error instanceof ResidueError) return { kind: 'skip', reason: `${error.message} (${residueNote})` };
  if (!(error instanceof DialError)) return null;
  if (error.kind === 'full') return { kind: 'full', reason: error.message };
  // Until the address changes, the next connect gets a 503 naming the policy at once instead of
  // queueing for a cooldown to end.
  return { kind: 'failed', reason: error.message, untilReset: policyUntilReset && error.kind === 'policy' };
}
