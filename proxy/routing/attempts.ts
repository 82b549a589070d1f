// One connection's walk over the providers the routing engine hands out, shared by the three
// connect edges: the hosted /v1/connect (proxy/connect/), the data API (proxy/data-api/) and the
// gateway's /v1/connect (proxy/gateway/). Each attempt takes the provider's slot shared with the
// other proxies (where there are several), then runs the edge's own attempt (resolve and dial the
// browser, load a profile; or open a browser context). What the attempt's failure means is the
// same everywhere:
// - failed: counts toward the provider's cooldown (here and in the shared count), fail over to the
//   next provider of the chain; with none left, the edge's answer (a refusal, or the gateway's queue);
// - full (a managed provider at capacity, or its shared slots all taken): no blame; the next free
//   provider, or the router queue;
// - skip (the browser holds another profile's state): no blame; the next provider;
// - the client went away: everything held is freed and the walk ends with null.
// Engine refusals are put in the edge's words by its table (refusals.ts).
import { log } from '../../lib/log';
import type { Cluster, SharedSlot } from '../cluster/cluster';
import { concurrencyLimit, isEngineError, type CooldownSettings, type EngineError, type Reservation, type RouterEngine } from '../engine';
import type { ProviderConfig } from '../engine/types';

/** How an attempt that threw counts (Edge.verdict); null for an error that is no provider's doing. */
export type Verdict =
  | { kind: 'full'; reason: string }
  | { kind: 'skip'; reason: string }
  /** `untilReset`: out until the provider's address changes (the egress policy refused it). */
  | { kind: 'failed'; reason: string; untilReset?: boolean; timedOut?: boolean };

export type Failure = Extract<Verdict, { kind: 'failed' }>;

/** The provider slots shared by every proxy on the database (docs/deployment.md). */
export interface SharedSlots<P extends ProviderConfig> {
  cluster: Cluster;
  /** Where a cooldown that the shared count started is applied at once. */
  engine: RouterEngine<P>;
  settings: CooldownSettings;
  /** The error for a database that did not answer. */
  unavailable(): Error;
}

export interface Edge<P extends ProviderConfig, T> {
  /** The client's: once it fires, the walk frees what it holds and ends with null. */
  signal: AbortSignal;
  /** The first reservation (the engine's acquire). */
  acquire(): Promise<Reservation<P>>;
  /** Opens the session (or the call's context) on one provider; frees what it opened when it throws. */
  attempt(provider: P): Promise<T>;
  verdict(error: unknown): Verdict | null;
  /** An engine refusal in the edge's words. */
  refuse(error: EngineError): Error;
  /** After "full": the next reservation (by default Reservation.full on the client's signal). */
  full?(reservation: Reservation<P>): Promise<Reservation<P>>;
  /** Every engine call that may wait goes through this (the gateway bounds them by its queue deadline). */
  settle?(step: Promise<Reservation<P>>): Promise<Reservation<P>>;
  /** A failed attempt, after the reservation was failed (the gateway counts strikes). */
  onFailed?(provider: P): void;
  /**
   * A failed attempt left no provider in the chain (a pinned connection always): the edge's refusal,
   * thrown, or a reservation it waits for (the gateway's queue). `failures`: this walk's, in order.
   */
  exhausted(last: Reservation<P>, failures: readonly Failure[]): Promise<Reservation<P>>;
  /** Every provider left was skipped (only edges whose attempts skip need it). */
  skippedAll?(last: Reservation<P>): Error;
  shared?: SharedSlots<P>;
  /** Names the edge in log lines ("data-API provider attempt failed"). */
  label: string;
  logContext?: Record<string, unknown>;
}

/** The reservation (still to be succeeded by the caller), what the attempt opened, and its shared slot. */
export interface Walked<P extends ProviderConfig, T> {
  reservation: Reservation<P>;
  value: T;
  shared: SharedSlot | null;
}

export async function walkProviders<P extends ProviderConfig, T>(edge: Edge<P, T>): Promise<Walked<P, T> | null> {
  const failures: Failure[] = [];
  let reservation = await step(edge, edge.acquire());
  while (reservation) {
    let shared: SharedSlot | null = null;
    try {
      shared = await takeShared(edge, reservation.provider);
      const value = await edge.attempt(reservation.provider);
      return { reservation, value, shared };
    } catch (error) {
      const verdict = edge.signal.aborted ? null : error instanceof AtSharedLimit ? { kind: 'full' as const, reason: error.message } : edge.verdict(error);
      if (verdict?.kind !== 'failed') void shared?.release();
      if (edge.signal.aborted) {
        reservation.cancel();
        return null;
      }
      if (!verdict) {
        reservation.cancel();
        throw error;
      }
      const where = { ...edge.logContext, provider: reservation.provider.slug, reason: verdict.reason };
      if (verdict.kind === 'full') log.info(where, `${edge.label} at capacity`);
      else log.info(where, verdict.kind === 'skip' ? `${edge.label} holds another profile` : `${edge.label} attempt failed`);
      if (verdict.kind === 'full') reservation = await step(edge, edge.full ? edge.full(reservation) : reservation.full({ signal: edge.signal }));
      else if (verdict.kind === 'skip') reservation = skipped(edge, reservation, verdict.reason);
      else reservation = await failed(edge, reservation, shared, verdict, failures);
    }
  }
  return null;
}

/** An engine call that may wait: its reservation, null when the client went away, or the edge's refusal. */
async function step<P extends ProviderConfig, T>(edge: Edge<P, T>, call: Promise<Reservation<P>>): Promise<Reservation<P> | null> {
  let reservation: Reservation<P>;
  try {
    reservation = await (edge.settle ? edge.settle(call) : call);
  } catch (error) {
    if (edge.signal.aborted) return null;
    throw isEngineError(error) ? edge.refuse(error) : error;
  }
  if (!edge.signal.aborted) return reservation;
  reservation.cancel();
  return null;
}

function skipped<P extends ProviderConfig, T>(edge: Edge<P, T>, reservation: Reservation<P>, reason: string): Reservation<P> {
  const next = reservation.skip(reason);
  if (!next) throw edge.skippedAll?.(reservation) ?? new Error(`no provider can take the connection: ${reason}`);
  return next;
}

async function failed<P extends ProviderConfig, T>(
  edge: Edge<P, T>,
  reservation: Reservation<P>,
  shared: SharedSlot | null,
  failure: Failure,
  failures: Failure[],
): Promise<Reservation<P> | null> {
  failures.push(failure);
  const cooled = shared && edge.shared ? await shared.fail(edge.shared.settings) : null;
  if (cooled) edge.shared!.engine.enterCooldown(cooled.providerId, cooled.remainingMs);
  const next = reservation.fail(failure.reason, { untilReset: failure.untilReset });
  edge.onFailed?.(reservation.provider);
  if (edge.signal.aborted) {
    next?.cancel();
    return null;
  }
  // A pinned connection never has a next provider.
  return next ?? step(edge, edge.exhausted(reservation, failures));
}

/** The provider's slot across every proxy; at its limit there, the same as the provider answering "full". */
async function takeShared<P extends ProviderConfig, T>(edge: Edge<P, T>, provider: P): Promise<SharedSlot | null> {
  if (!edge.shared) return null;
  const slot = await edge.shared.cluster.take(provider).catch((error: Error) => {
    log.error({ provider: provider.slug, err: error.message }, 'could not take a provider lease');
    throw edge.shared!.unavailable();
  });
  if (!slot) throw new AtSharedLimit(`${provider.slug} holds its limit of ${concurrencyLimit(provider)} sessions across the proxies`);
  return slot;
}

/** Every proxy together holds the provider's limit: counts as the provider answering "full". */
class AtSharedLimit extends Error {}
