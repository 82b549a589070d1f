import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { createStrategy, type RoutingView } from './strategies';
import { provider, setup } from './testing';
import type { ProviderConfig } from './types';

function view(providers: ProviderConfig[], state: { active?: Record<string, number>; latency?: Record<string, number>; down?: string[] } = {}): RoutingView {
  return {
    active: (id) => state.active?.[id] ?? 0,
    latencyMs: (id) => state.latency?.[id] ?? null,
    available: (id) => !state.down?.includes(id),
    position: (id) => providers.findIndex((p) => p.id === id),
  };
}

const ids = (ps: ProviderConfig[]) => ps.map((p) => p.id);

test('priority-chain: lower priority number first, ties in configured order', () => {
  const ps = [provider('a', { priority: 100 }), provider('b', { priority: 1 }), provider('c', { priority: 50 }), provider('d', { priority: 1 })];
  const s = createStrategy('priority-chain');
  assert.deepEqual(ids(s.order(ps, view(ps))), ['b', 'd', 'c', 'a']);
  // Stateless: asking again gives the same order.
  assert.deepEqual(ids(s.order(ps, view(ps))), ['b', 'd', 'c', 'a']);
});

test('round-robin: the start rotates per call, the rest follows cyclically', () => {
  const ps = [provider('a'), provider('b'), provider('c')];
  const s = createStrategy('round-robin');
  const v = view(ps);
  assert.deepEqual(ids(s.order(ps, v)), ['a', 'b', 'c']);
  assert.deepEqual(ids(s.order(ps, v)), ['b', 'c', 'a']);
  assert.deepEqual(ids(s.order(ps, v)), ['c', 'a', 'b']);
  assert.deepEqual(ids(s.order(ps, v)), ['a', 'b', 'c']);
});

test('round-robin: an unavailable provider is skipped without doubling the next one', () => {
  const ps = [provider('a'), provider('b'), provider('c')];
  const s = createStrategy('round-robin');
  const v = view(ps, { down: ['b'] });
  const firsts = Array.from({ length: 6 }, () => s.order(ps, v)[0]!.id);
  assert.deepEqual(firsts, ['a', 'c', 'a', 'c', 'a', 'c']);
  // The order still lists the unavailable provider: it may free up before a failover needs it.
  assert.deepEqual(ids(s.order(ps, v)), ['a', 'b', 'c']);
});

test('round-robin: nothing available leaves the rotation where it was', () => {
  const ps = [provider('a'), provider('b')];
  const s = createStrategy('round-robin');
  s.order(ps, view(ps));
  s.order(ps, view(ps, { down: ['a', 'b'] }));
  assert.deepEqual(ids(s.order(ps, view(ps))), ['b', 'a']);
});

test('least-connections: fewest active first; ties by priority then configured order', () => {
  const ps = [provider('a', { priority: 5 }), provider('b', { priority: 1 }), provider('c', { priority: 5 }), provider('d')];
  const s = createStrategy('least-connections');
  const v = view(ps, { active: { a: 1, b: 1, c: 1, d: 3 } });
  assert.deepEqual(ids(s.order(ps, v)), ['b', 'a', 'c', 'd']);
  assert.deepEqual(ids(s.order(ps, view(ps, { active: { a: 2, b: 2, c: 0, d: 1 } }))), ['c', 'd', 'b', 'a']);
});

test('latency-optimized: unmeasured first (by priority), then lowest average', () => {
  const ps = [provider('a', { priority: 3 }), provider('b', { priority: 2 }), provider('c'), provider('d', { priority: 1 })];
  const s = createStrategy('latency-optimized');
  const v = view(ps, { latency: { a: 50, c: 20 } });
  assert.deepEqual(ids(s.order(ps, v)), ['d', 'b', 'c', 'a']);
});

test('latency-optimized through the engine: the EWMA moves traffic to the faster provider', async () => {
  const { engine } = setup([provider('slow'), provider('fast')], { strategy: 'latency-optimized' });
  const connect = async (ms: Record<string, number>) => {
    const r = await engine.acquire();
    r.succeed(ms[r.provider.id]!).release();
    return r.provider.id;
  };
  // Both unmeasured: configured order, each gets measured once.
  assert.equal(await connect({ slow: 400, fast: 100 }), 'slow');
  assert.equal(await connect({ slow: 400, fast: 100 }), 'fast');
  assert.equal(await connect({ slow: 400, fast: 100 }), 'fast');
  // "fast" degrades to 600 ms; the average (alpha 0.3: 100, 250, 355, 428.5) passes 400 only
  // after three slow samples, then traffic moves.
  const seen: string[] = [];
  for (let i = 0; i < 6; i++) seen.push(await connect({ slow: 400, fast: 600 }));
  assert.deepEqual(seen, ['fast', 'fast', 'fast', 'slow', 'slow', 'slow']);
  const status = Object.fromEntries(engine.status().map((s) => [s.id, s.latencyMs]));
  assert.equal(status.slow, 400);
  assert.ok(status.fast! > 400);
});

test('weighted: smooth sequence matches nginx for weights 5,1,1; failover rest by weight', () => {
  const ps = [provider('a', { weight: 5 }), provider('b', { weight: 1 }), provider('c', { weight: 2 })];
  const s = createStrategy('weighted');
  const v = view(ps);
  const nginx = [provider('a', { weight: 5 }), provider('b', { weight: 1 }), provider('c', { weight: 1 })];
  const s2 = createStrategy('weighted');
  const seq = Array.from({ length: 7 }, () => s2.order(nginx, view(nginx))[0]!.id).join('');
  assert.equal(seq, 'aabacaa');
  const first = s.order(ps, v);
  assert.equal(first[0]!.id, 'a');
  assert.deepEqual(ids(first.slice(1)), ['c', 'b']);
});

test('weighted: shares are exact over every run of totalWeight picks (property)', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 5 }), (weights, rounds) => {
      const ps = weights.map((w, i) => provider(`p${i}`, { weight: w }));
      const s = createStrategy('weighted');
      const v = view(ps);
      const total = weights.reduce((a, b) => a + b, 0);
      for (let r = 0; r < rounds; r++) {
        const counts = new Map<string, number>();
        for (let i = 0; i < total; i++) {
          const id = s.order(ps, v)[0]!.id;
          counts.set(id, (counts.get(id) ?? 0) + 1);
        }
        ps.forEach((p) => assert.equal(counts.get(p.id) ?? 0, p.weight));
      }
    }),
    { numRuns: 200, seed: 7 },
  );
});

test('weighted through the engine: 10,000 sessions split 3:1:1 exactly', async () => {
  const { engine } = setup([provider('a', { weight: 300 }), provider('b', { weight: 100 }), provider('c', { weight: 100 })], { strategy: 'weighted' });
  const counts: Record<string, number> = { a: 0, b: 0, c: 0 };
  for (let i = 0; i < 10_000; i++) {
    const r = await engine.acquire();
    counts[r.provider.id]!++;
    r.succeed(10).release();
  }
  assert.deepEqual(counts, { a: 6000, b: 2000, c: 2000 });
});

test('weighted: an unavailable provider is left out of the round', () => {
  const ps = [provider('a', { weight: 2 }), provider('b', { weight: 1 }), provider('c', { weight: 1 })];
  const s = createStrategy('weighted');
  const v = view(ps, { down: ['a'] });
  const picks = Array.from({ length: 4 }, () => s.order(ps, v)[0]!.id);
  assert.deepEqual(picks.sort(), ['b', 'b', 'c', 'c']);
});

test('unknown strategy name is refused', () => {
  assert.throws(() => createStrategy('random' as never), RangeError);
});
