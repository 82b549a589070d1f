// The attempt runner the three connect edges share, on the real routing engine: what each verdict
// does to the reservation and to the provider's standing, and that nothing stays held.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngineError, type Reservation } from '../engine';
import { provider, setup } from '../engine/testing';
import type { ProviderConfig } from '../engine/types';
import { walkProviders, type Edge, type Failure, type Verdict } from './attempts';

class Refused extends Error {}
class Broken extends Error {}
const chain = () => [provider('a', { priority: 1 }), provider('b', { priority: 2 }), provider('c', { priority: 3 })];

/** An edge whose attempt on each provider throws what `outcomes` names (or opens it). */
function edgeOver(
  engine: ReturnType<typeof setup>['engine'],
  outcomes: Record<string, Verdict | 'open' | 'broken'>,
  extra: Partial<Edge<ProviderConfig, string>> = {},
) {
  const tried: string[] = [];
  const exhaustedWith: Failure[][] = [];
  const edge: Edge<ProviderConfig, string> = {
    signal: new AbortController().signal,
    acquire: () => engine.acquire(),
    attempt: async (p) => {
      tried.push(p.id);
      const outcome = outcomes[p.id] ?? 'open';
      if (outcome === 'open') return `browser on ${p.id}`;
      throw outcome === 'broken' ? new Broken('bug') : Object.assign(new Refused(outcome.reason), { verdict: outcome });
    },
    verdict: (error) => (error instanceof Refused ? (error as Refused & { verdict: Verdict }).verdict : null),
    refuse: (error) => new Refused(`refused: ${error.code}`),
    exhausted: (_last: Reservation<ProviderConfig>, failures) => {
      exhaustedWith.push([...failures]);
      return Promise.reject(new Refused('every provider failed'));
    },
    skippedAll: () => new Refused('every provider skipped'),
    label: 'test provider',
    ...extra,
  };
  return { edge, tried, exhaustedWith };
}

const active = (engine: ReturnType<typeof setup>['engine']) => engine.status().map((s) => s.active);

test('a failed attempt fails over and counts against the provider; the one that opens is handed back unsettled', async () => {
  const { engine } = setup(chain(), { strategy: 'priority-chain', cooldownMinRequestVolume: 1, cooldownFailureThreshold: 0.5 });
  const { edge, tried } = edgeOver(engine, { a: { kind: 'failed', reason: 'connection refused' } });
  const walked = (await walkProviders(edge))!;
  assert.deepEqual(tried, ['a', 'b']);
  assert.equal(walked.value, 'browser on b');
  assert.deepEqual(
    walked.reservation.attempts.map((a) => [a.providerId, a.reason]),
    [['a', 'connection refused']],
  );
  assert.equal(engine.status().find((s) => s.id === 'a')!.healthy, false, 'a is cooling down');
  assert.deepEqual(active(engine), [0, 1, 0]);
  walked.reservation.succeed(5).release();
  assert.deepEqual(active(engine), [0, 0, 0]);
});

test('full and skip pass a provider by without blame', async () => {
  const { engine } = setup(chain(), { strategy: 'priority-chain', cooldownMinRequestVolume: 1 });
  const { edge, tried } = edgeOver(engine, { a: { kind: 'full', reason: 'at capacity' }, b: { kind: 'skip', reason: 'holds another profile' } });
  const walked = (await walkProviders(edge))!;
  assert.deepEqual(tried, ['a', 'b', 'c']);
  assert.equal(walked.value, 'browser on c');
  assert.ok(
    engine.status().every((s) => s.healthy && s.cooldownUntil === null),
    'nobody is cooling down',
  );
  walked.reservation.cancel();
  assert.deepEqual(active(engine), [0, 0, 0]);
});

test("an exhausted chain asks the edge, with every failure in order; skipping every provider is the edge's other refusal", async () => {
  const { engine } = setup(chain(), { strategy: 'priority-chain', cooldownMinRequestVolume: 100 });
  const failed = (reason: string): Verdict => ({ kind: 'failed', reason, timedOut: reason === 'timeout' });
  const { edge, exhaustedWith } = edgeOver(engine, { a: failed('timeout'), b: failed('refused'), c: failed('timeout') });
  await assert.rejects(walkProviders(edge), /every provider failed/);
  assert.deepEqual(exhaustedWith, [[failed('timeout'), failed('refused'), failed('timeout')]]);
  assert.deepEqual(active(engine), [0, 0, 0]);

  const skipping = edgeOver(engine, Object.fromEntries(['a', 'b', 'c'].map((id) => [id, { kind: 'skip', reason: 'residue' } as Verdict])));
  await assert.rejects(walkProviders(skipping.edge), /every provider skipped/);
  assert.deepEqual(active(engine), [0, 0, 0]);
});

test("an error that is no verdict is rethrown as it is, its reservation freed; engine refusals are put in the edge's words", async () => {
  const { engine } = setup(chain(), { strategy: 'priority-chain' });
  await assert.rejects(walkProviders(edgeOver(engine, { a: 'broken' }).edge), Broken);
  assert.deepEqual(active(engine), [0, 0, 0]);
  const pinnedNowhere = edgeOver(engine, {}, { acquire: () => Promise.reject(new EngineError('pinned_not_found')) });
  await assert.rejects(walkProviders(pinnedNowhere.edge), /refused: pinned_not_found/);
});

test('the client leaving mid-attempt ends the walk with null and frees the reservation, failed or not', async () => {
  const { engine } = setup(chain(), { strategy: 'priority-chain', cooldownMinRequestVolume: 1 });
  const client = new AbortController();
  const { edge } = edgeOver(
    engine,
    {},
    {
      signal: client.signal,
      attempt: async () => {
        client.abort();
        throw new Refused('the dial was cut');
      },
      verdict: () => ({ kind: 'failed', reason: 'would count' }),
    },
  );
  assert.equal(await walkProviders(edge), null);
  assert.deepEqual(active(engine), [0, 0, 0]);
  assert.ok(
    engine.status().every((s) => s.healthy),
    'an abandoned attempt counts against nobody',
  );
});
