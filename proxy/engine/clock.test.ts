import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from './clock';

test('FakeClock fires due timers in due order, ties in creation order, at their due time', () => {
  const clock = new FakeClock(100);
  const fired: string[] = [];
  clock.setTimer(() => fired.push(`b@${clock.now()}`), 20);
  clock.setTimer(() => fired.push(`a@${clock.now()}`), 10);
  clock.setTimer(() => fired.push(`c@${clock.now()}`), 20);
  clock.setTimer(() => fired.push('late'), 31);
  clock.advance(30);
  assert.deepEqual(fired, ['a@110', 'b@120', 'c@120']);
  assert.equal(clock.now(), 130);
  assert.equal(clock.pendingTimers, 1);
});

test('FakeClock runs timers created by a callback inside the same advance', () => {
  const clock = new FakeClock();
  const fired: number[] = [];
  clock.setTimer(() => {
    fired.push(clock.now());
    clock.setTimer(() => fired.push(clock.now()), 5);
  }, 5);
  clock.advance(10);
  assert.deepEqual(fired, [5, 10]);
});

test('FakeClock clearTimer cancels, zero-delay timers need an advance, no going back', () => {
  const clock = new FakeClock();
  let n = 0;
  const h = clock.setTimer(() => n++, 5);
  clock.setTimer(() => (n += 10), 0);
  clock.clearTimer(h);
  assert.equal(n, 0);
  clock.advance(0);
  assert.equal(n, 10);
  clock.advance(100);
  assert.equal(n, 10);
  assert.throws(() => clock.advance(-1), RangeError);
});

test('FakeClock jump moves time without firing; the next advance fires late timers', () => {
  const clock = new FakeClock();
  const fired: number[] = [];
  clock.setTimer(() => fired.push(clock.now()), 10);
  clock.jump(50);
  assert.deepEqual(fired, []);
  clock.advance(0);
  assert.deepEqual(fired, [50]);
});
