import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from './clock';
import { COOLDOWN_WINDOW_MS, CooldownTracker, type CooldownSettings } from './cooldown';
import { isEngineError } from './errors';
import { RouterEngine } from './engine';
import { provider, settings, setup } from './testing';

const DEFAULTS: CooldownSettings = { cooldownDefaultMs: 30_000, cooldownFailureThreshold: 0.5, cooldownMinRequestVolume: 3 };

function tracker(overrides: Partial<CooldownSettings> = {}) {
  const clock = new FakeClock(5_000_000);
  const ended: string[] = [];
  const t = new CooldownTracker(clock, { ...DEFAULTS, ...overrides }, (id) => ended.push(id));
  /** Records a string of outcomes, F = failure, S = success; returns the cooldown each started. */
  const run = (outcomes: string) => [...outcomes].map((o) => t.record('p', o === 'S'));
  return { clock, t, ended, run };
}

test('failure rate above the threshold with the minimum volume starts a cooldown', () => {
  const { t, run, clock } = tracker();
  assert.deepEqual(run('FSF'), [null, null, 30_000]);
  assert.equal(t.cooldownUntil('p'), clock.now() + 30_000);
});

test('a rate exactly at the threshold does not trigger', () => {
  const { t, run } = tracker();
  // Rates once the volume is reached: 1/3, then 2/4 = exactly 0.5.
  assert.deepEqual(run('SFSF'), [null, null, null, null]);
  assert.equal(t.isCooling('p'), false);
  const { t: t2, run: run2 } = tracker({ cooldownFailureThreshold: 2 / 3, cooldownMinRequestVolume: 3 });
  run2('FFS');
  assert.equal(t2.isCooling('p'), false);
});

test('below the minimum volume nothing triggers, even at 100% failures', () => {
  const { t, run } = tracker({ cooldownMinRequestVolume: 5 });
  run('FFFF');
  assert.equal(t.isCooling('p'), false);
  run('F');
  assert.equal(t.isCooling('p'), true);
});

test('threshold 1 never triggers; cooldownDefaultMs 0 never cools down', () => {
  const one = tracker({ cooldownFailureThreshold: 1 });
  one.run('F'.repeat(50));
  assert.equal(one.t.isCooling('p'), false);
  const zero = tracker({ cooldownDefaultMs: 0 });
  zero.run('F'.repeat(50));
  assert.equal(zero.t.isCooling('p'), false);
});

test('threshold 0 with volume 0: the first failure triggers, successes never do', () => {
  const { t, run } = tracker({ cooldownFailureThreshold: 0, cooldownMinRequestVolume: 0 });
  run('SSS');
  assert.equal(t.isCooling('p'), false);
  run('F');
  assert.equal(t.isCooling('p'), true);
});

test('the cooldown ends after cooldownDefaultMs and reports the end', () => {
  const { t, run, clock, ended } = tracker();
  run('FFF');
  clock.advance(29_999);
  assert.equal(t.isCooling('p'), true);
  assert.deepEqual(ended, []);
  clock.advance(1);
  assert.equal(t.isCooling('p'), false);
  assert.equal(t.cooldownUntil('p'), null);
  assert.deepEqual(ended, ['p']);
});

test('failures older than 60 s fall out of the window', () => {
  const { t, run, clock } = tracker();
  run('FF');
  clock.advance(COOLDOWN_WINDOW_MS - 1);
  assert.deepEqual(t.windowCounts('p'), { attempts: 2, failures: 2 });
  clock.advance(1); // exactly 60 s old: expired
  assert.deepEqual(t.windowCounts('p'), { attempts: 0, failures: 0 });
  run('F');
  assert.equal(t.isCooling('p'), false);
  run('F');
  assert.equal(t.isCooling('p'), false); // 2 attempts, below volume 3
  run('S');
  assert.equal(t.isCooling('p'), true); // 2/3 > 0.5
});

test('re-entry needs the threshold exceeded again by new outcomes', () => {
  const { t, run, clock } = tracker();
  run('FFF');
  clock.advance(30_000);
  assert.equal(t.isCooling('p'), false);
  assert.deepEqual(t.windowCounts('p'), { attempts: 0, failures: 0 });
  run('F');
  assert.equal(t.isCooling('p'), false); // one new failure is below the volume
  run('SF');
  assert.equal(t.isCooling('p'), true); // 2/3 of new outcomes
});

test('outcomes arriving during a cooldown are ignored', () => {
  const { t, run, clock } = tracker();
  run('FFF');
  assert.deepEqual(run('FFFFF'), [null, null, null, null, null]);
  const until = t.cooldownUntil('p');
  clock.advance(30_000);
  assert.equal(t.isCooling('p'), false);
  assert.notEqual(until, null);
  assert.deepEqual(t.windowCounts('p'), { attempts: 0, failures: 0 });
});

test('engine: no attempt during cooldown, webhook event, status, back in the pool after', async () => {
  const { engine, clock } = setup([provider('a', { priority: 1 }), provider('b', { priority: 2 })], { strategy: 'priority-chain' });
  const events: [string, number][] = [];
  engine.onCooldown((id, ms) => events.push([id, ms]));
  for (let i = 0; i < 3; i++) {
    const r = await engine.acquire();
    assert.equal(r.provider.id, 'a');
    r.fail('refused')!.cancel();
  }
  assert.deepEqual(events, [['a', 30_000]]);
  const a = engine.status().find((s) => s.id === 'a')!;
  assert.equal(a.healthy, false);
  assert.equal(a.cooldownUntil, clock.now() + 30_000);
  for (let i = 0; i < 5; i++) {
    const r = await engine.acquire();
    assert.equal(r.provider.id, 'b');
    r.cancel();
  }
  await assert.rejects(engine.acquire({ pin: 'a' }), (e) => isEngineError(e, 'pinned_unavailable') && e.reason === 'unavailable' && e.providerId === 'a');
  clock.advance(30_000);
  assert.equal(engine.status()[0]!.healthy, true);
  assert.equal(engine.status()[0]!.cooldownUntil, null);
  const r = await engine.acquire();
  assert.equal(r.provider.id, 'a');
});

test('engine: a throwing cooldown listener does not break routing', async () => {
  const { engine } = setup([provider('a'), provider('b')], { cooldownMinRequestVolume: 1 });
  const seen: string[] = [];
  engine.onCooldown(() => {
    throw new Error('webhook down');
  });
  const off = engine.onCooldown((id) => seen.push(id));
  const r = await engine.acquire();
  const next = r.fail('refused');
  assert.ok(next);
  assert.deepEqual(seen, [r.provider.id]);
  off();
});

test('a tracker that does not decide counts nothing and takes cooldowns from outside', () => {
  const clock = new FakeClock(5_000_000);
  const ended: string[] = [];
  const t = new CooldownTracker(clock, DEFAULTS, (id) => ended.push(id), false);
  assert.deepEqual(
    ['F', 'F', 'F', 'F'].map(() => t.record('p', false)),
    [null, null, null, null],
  );
  assert.equal(t.isCooling('p'), false);
  assert.equal(t.enter('p', clock.now() + 10_000), true);
  assert.equal(t.cooldownUntil('p'), clock.now() + 10_000);
  // The same or a shorter one changes nothing; a longer one extends it; one in the past is ignored.
  assert.equal(t.enter('p', clock.now() + 10_000), false);
  assert.equal(t.enter('p', clock.now() + 5_000), false);
  assert.equal(t.enter('p', clock.now() + 12_000), true);
  assert.equal(t.enter('q', clock.now() - 1), false);
  clock.advance(11_999);
  assert.deepEqual(ended, []);
  clock.advance(1);
  assert.deepEqual(ended, ['p'], 'ends once, at the later end');
  assert.equal(t.isCooling('p'), false);
});

test('an engine with shared cooldown routes around a cooldown entered from outside, then back', async () => {
  const clock = new FakeClock(1_000_000);
  const engine = new RouterEngine({ clock, settings: settings({ cooldownMinRequestVolume: 1 }), providers: [provider('a'), provider('b')], shared: true });
  const first = await engine.acquire();
  assert.equal(first.provider.id, 'a');
  // Its own failures decide nothing: the shared count does.
  first.fail('refused')?.cancel();
  assert.equal(engine.status().find((s) => s.id === 'a')?.cooldownUntil, null);
  assert.equal(engine.enterCooldown('a', 30_000), true);
  assert.equal(engine.enterCooldown('unknown', 30_000), false);
  const second = await engine.acquire();
  assert.equal(second.provider.id, 'b');
  second.cancel();
  clock.advance(30_000);
  const third = await engine.acquire();
  assert.equal(third.provider.id, 'a');
  third.cancel();
});
