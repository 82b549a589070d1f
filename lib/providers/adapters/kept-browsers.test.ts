// adapter-one's end-of-session rule on a fake clock: a released browser is kept 15 minutes for a
// reconnect, then stopped. (The vendor calls themselves are tested against the vendor stand-in.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../../../proxy/engine/clock';
import { KEEP_FOR_RECONNECT_MS } from './adapter-one';
import { KeptBrowsers } from './kept-browsers';

function setup() {
  const clock = new FakeClock(1_000_000);
  const stopped: string[] = [];
  const kept = new KeptBrowsers(clock, KEEP_FOR_RECONNECT_MS, async (_key, id) => {
    stopped.push(id);
  });
  const ref = (id: string, reuseKey?: string) => ({ vendorSessionId: id, connectUrl: `ws://vendor/${id}`, reuseKey });
  return { clock, stopped, kept, ref };
}

test('kept for 15 minutes, then stopped', async () => {
  const { clock, stopped, kept, ref } = setup();
  assert.equal(kept.keep('key', ref('b1')), 1_000_000 + 15 * 60_000);
  clock.advance(KEEP_FOR_RECONNECT_MS - 1);
  await kept.idle();
  assert.deepEqual(stopped, []);
  clock.advance(1);
  await kept.idle();
  assert.deepEqual(stopped, ['b1']);
  assert.equal(kept.size, 0);
});

test('a reconnect within the window takes the browser back and cancels the stop', async () => {
  const { clock, stopped, kept, ref } = setup();
  kept.keep('key', ref('b1', 'client-1'));
  clock.advance(10 * 60_000);
  assert.equal(kept.take('other key', 'client-1'), null, 'another key never gets it');
  assert.equal(kept.take('key', 'someone-else'), null);
  assert.deepEqual(kept.take('key', 'client-1'), ref('b1', 'client-1'));
  clock.advance(KEEP_FOR_RECONNECT_MS);
  await kept.idle();
  assert.deepEqual(stopped, []);
  assert.equal(kept.take('key', 'client-1'), null, 'taken once');
  // Released again: a fresh 15 minutes from now.
  kept.keep('key', ref('b1', 'client-1'));
  clock.advance(KEEP_FOR_RECONNECT_MS);
  await kept.idle();
  assert.deepEqual(stopped, ['b1']);
});

test('a second browser under the same reuse key stops the first; shutdown stops the rest', async () => {
  const { stopped, kept, ref } = setup();
  kept.keep('key', ref('b1', 'client-1'));
  kept.keep('key', ref('b2', 'client-1'));
  kept.keep('key', ref('b3'));
  await kept.idle();
  assert.deepEqual(stopped, ['b1']);
  await kept.stopAll();
  assert.deepEqual(stopped.sort(), ['b1', 'b2', 'b3']);
  assert.equal(kept.size, 0);
});
