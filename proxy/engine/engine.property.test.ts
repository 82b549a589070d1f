// Random interleavings of everything a caller and time can do. Checked after every step:
// exact slot accounting (no leak, no double release), no admission beyond the current limit or
// onto a removed provider, no waiter left waiting while one of its providers is free; and at the
// end every acquire has settled once the clock passed the queue timeout.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { FakeClock } from './clock';
import { RouterEngine } from './engine';
import { EngineError } from './errors';
import type { Lease, Reservation } from './reservation';
import { MemorySlotStore, type SlotStore } from './slots';
import { flush } from './testing';
import { STRATEGY_NAMES, concurrencyLimit, type ProviderConfig, type RouterSettings } from './types';

// Fixed so the suite is deterministic; FC_SEED=<n> / FC_RUNS=<n> explore other interleavings.
const SEED = Number(process.env.FC_SEED ?? 20_261_122);
const POOL = ['p0', 'p1', 'p2', 'p3'];
const MAX_QUEUE_TIMEOUT = 5_000;

const providerArb = (id: string) =>
  fc.record({
    id: fc.constant(id),
    slug: fc.constant(`${id}-slug`),
    priority: fc.integer({ min: 1, max: 3 }),
    weight: fc.integer({ min: 1, max: 4 }),
    maxConcurrent: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null, freq: 3 }),
    advertisedMaxConcurrent: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
  });

interface Config {
  settings: RouterSettings;
  providers: ProviderConfig[];
}

const configArb: fc.Arbitrary<Config> = fc.record({
  settings: fc.record({
    strategy: fc.constantFrom(...STRATEGY_NAMES),
    cooldownDefaultMs: fc.constantFrom(0, 500, 5_000),
    cooldownFailureThreshold: fc.constantFrom(0, 0.3, 0.5, 1),
    cooldownMinRequestVolume: fc.integer({ min: 0, max: 3 }),
    queueMaxSize: fc.constantFrom(0, 1, 3, 10),
    queueTimeoutMs: fc.constantFrom(0, 100, 1_000, MAX_QUEUE_TIMEOUT, MAX_QUEUE_TIMEOUT),
  }),
  providers: fc
    .record({ all: fc.tuple(providerArb('p0'), providerArb('p1'), providerArb('p2'), providerArb('p3')), keep: fc.subarray(POOL) })
    .map(({ all, keep }) => all.filter((p) => keep.includes(p.id))),
});

const opArb = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('acquire' as const),
      pin: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...POOL, 'p2-slug', 'nope') }),
      mask: fc.integer({ min: 0, max: 15 }),
      abortable: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('succeed' as const), k: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('fail' as const), k: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('full' as const), k: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('room' as const), id: fc.constantFrom(...POOL) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), k: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('release' as const), k: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('abort' as const), k: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(0, 1, 50, 99, 100, 499, 500, 1_000) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('jump' as const), ms: fc.constantFrom(1, 100, 600, 6_000) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('health' as const), id: fc.constantFrom(...POOL), healthy: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('update' as const), config: configArb }) },
);
type Op = typeof opArb extends fc.Arbitrary<infer T> ? T : never;

interface Request {
  seq: number;
  mask: number;
  pin: string | undefined;
  controller: AbortController | null;
  settled: boolean;
}

/**
 * Wraps the real store and records any admission the configuration does not allow. Records
 * rather than throws: the engine may call it deep inside a promise chain, where a throw would
 * surface as a rejected acquire instead of a failed run.
 */
class CheckingSlots implements SlotStore {
  private readonly inner = new MemorySlotStore();
  constructor(
    private readonly current: () => readonly ProviderConfig[],
    private readonly problems: string[],
  ) {}
  tryAcquire(id: string, limit: number | null): boolean {
    const config = this.current().find((p) => p.id === id);
    if (!config) this.problems.push(`slot taken on ${id}, which is not configured`);
    else if (limit !== concurrencyLimit(config)) this.problems.push(`stale limit ${limit} for ${id}`);
    const ok = this.inner.tryAcquire(id, limit);
    if (ok && config && this.inner.active(id) > (concurrencyLimit(config) ?? Infinity)) this.problems.push(`over-admitted ${id}`);
    return ok;
  }
  release(id: string): void {
    this.inner.release(id);
  }
  active(id: string): number {
    return this.inner.active(id);
  }
}

const eligibleBy = (mask: number) => (p: ProviderConfig) => mask === 0 || (mask & (1 << POOL.indexOf(p.id))) !== 0;

async function run(initial: Config, ops: Op[]): Promise<void> {
  const clock = new FakeClock(10_000);
  let config = initial;
  const problems: string[] = [];
  const slots = new CheckingSlots(() => config.providers, problems);
  const engine = new RouterEngine({ clock, settings: config.settings, providers: config.providers, slots });
  const requests: Request[] = [];
  /** Connections told "full": settled once they have their next reservation or an error. */
  const fullAnswers: { settled: boolean }[] = [];
  const reservations: Reservation[] = [];
  const leases: Lease[] = [];
  let timersLate = false;
  const unhealthy = new Set<string>();

  const hold = (r: Reservation | null) => r && reservations.push(r);
  const pick = <T>(items: T[], k: number): T | undefined => (items.length ? items.splice(k % items.length, 1)[0] : undefined);

  const waitingFor = (id: string) => requests.filter((q) => !q.settled && !q.pin && eligibleBy(q.mask)({ id } as ProviderConfig));
  let failedOverTo: string | null = null;
  // Checked once the step's promise callbacks have all run: resolution order of promises says
  // nothing about the order in which the engine handed out slots.
  let servedThisStep: { seq: number; providerId: string }[] = [];

  const check = () => {
    assert.deepEqual(problems, []);
    const held = new Map<string, number>();
    for (const x of [...reservations, ...leases]) held.set(x.provider.id, (held.get(x.provider.id) ?? 0) + 1);
    for (const id of POOL) assert.equal(slots.active(id), held.get(id) ?? 0, `slot accounting for ${id}`);
    if (timersLate) return; // a cooldown may be over without its wake-up having run yet
    const free = engine
      .status()
      .filter((s) => s.healthy && !s.full && (s.maxConcurrent === null || s.active < s.maxConcurrent))
      .map((s) => s.id);
    for (const req of requests.filter((r) => !r.settled && !r.pin)) {
      const usable = free.filter((id) => eligibleBy(req.mask)({ id } as ProviderConfig));
      assert.deepEqual(usable, [], 'a waiter is waiting while a provider it can use is free');
    }
  };

  for (const op of ops) {
    switch (op.kind) {
      case 'acquire': {
        const req: Request = { seq: requests.length, mask: op.mask, pin: op.pin, controller: op.abortable ? new AbortController() : null, settled: false };
        requests.push(req);
        engine.acquire({ pin: op.pin, eligible: eligibleBy(op.mask), signal: req.controller?.signal }).then(
          (r) => {
            req.settled = true;
            if (!eligibleBy(req.mask)(r.provider)) problems.push(`ineligible ${r.provider.id} handed out`);
            if (req.pin && r.provider.id !== req.pin && r.provider.slug !== req.pin) problems.push('pin ignored');
            servedThisStep.push({ seq: req.seq, providerId: r.provider.id });
            reservations.push(r);
          },
          (e) => {
            req.settled = true;
            if (!(e instanceof EngineError)) problems.push(`unexpected error ${String(e)}`);
          },
        );
        break;
      }
      case 'succeed': {
        const r = pick(reservations, op.k);
        if (r) leases.push(r.succeed(op.k % 300));
        break;
      }
      case 'fail': {
        const next = pick(reservations, op.k)?.fail('refused') ?? null;
        hold(next);
        failedOverTo = next?.provider.id ?? null;
        break;
      }
      case 'full': {
        const r = pick(reservations, op.k);
        if (!r) break;
        const answer = { settled: false };
        fullAnswers.push(answer);
        r.full().then(
          (next) => {
            answer.settled = true;
            reservations.push(next);
          },
          (e) => {
            answer.settled = true;
            if (!(e instanceof EngineError)) problems.push(`unexpected error ${String(e)}`);
          },
        );
        break;
      }
      case 'room':
        engine.capacityFreed(op.id);
        break;
      case 'cancel':
        pick(reservations, op.k)?.cancel();
        break;
      case 'release':
        pick(leases, op.k)?.release();
        break;
      case 'abort': {
        const abortable = requests.filter((r) => r.controller && !r.controller.signal.aborted);
        abortable[op.k % Math.max(1, abortable.length)]?.controller!.abort();
        break;
      }
      case 'advance':
        clock.advance(op.ms);
        timersLate = false;
        break;
      case 'jump':
        clock.jump(op.ms);
        timersLate = true;
        break;
      case 'health':
        engine.setHealthy(op.id, op.healthy);
        if (op.healthy) unhealthy.delete(op.id);
        else unhealthy.add(op.id);
        break;
      case 'update':
        config = op.config;
        engine.update(config.settings, config.providers);
        break;
    }
    await flush();
    // FIFO: nobody older that could use the same provider may still be waiting; a failover may
    // only take a slot that no waiter could use.
    for (const { seq, providerId } of servedThisStep) {
      if (waitingFor(providerId).some((q) => q.seq < seq)) problems.push(`request ${seq} overtook a waiter`);
    }
    if (failedOverTo && waitingFor(failedOverTo).length) problems.push(`failover to ${failedOverTo} overtook a waiter`);
    servedThisStep = [];
    failedOverTo = null;
    check();
  }

  // Every acquire settles once the clock is past the longest queue timeout.
  clock.advance(MAX_QUEUE_TIMEOUT + 1);
  await flush();
  assert.deepEqual(
    requests.filter((r) => !r.settled),
    [],
    'an acquire never settled',
  );
  assert.deepEqual(
    fullAnswers.filter((a) => !a.settled),
    [],
    'a connection told "full" never settled',
  );
  assert.deepEqual(problems, []);
  assert.equal(engine.queueLength, 0);
  for (const r of reservations.splice(0)) r.cancel();
  for (const l of leases.splice(0)) l.release();
  for (const id of POOL) assert.equal(slots.active(id), 0, `slot leaked on ${id}`);
}

test('random interleavings never over-admit, never leak a slot, never lose a waiter', async () => {
  await fc.assert(
    fc.asyncProperty(configArb, fc.array(opArb, { minLength: 5, maxLength: 80, size: 'max' }), (config, ops) => run(config, ops)),
    { numRuns: Number(process.env.FC_RUNS ?? 400), seed: SEED },
  );
});
