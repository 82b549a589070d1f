import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FrameLine, ManifestLine } from './format';
import { cutFrames, HOLD_CLIP_SLOTS, SegmentPlan, splitRun, Timeline, type Run } from './video-timeline';

let index = 0;
const frame = (t: number, target = 'a'): FrameLine => ({ k: 'f', i: index++, t, target, chunk: 0, offset: 0, length: 1, w: 1280, h: 720 });

/** The frame (as `target:t`) each slot shows, slot by slot. */
function slots(totalSlots: number, lines: ManifestLine[], slotMs = 100, holdMs = 1_000): string[] {
  const timeline = new Timeline<null>(totalSlots, slotMs, holdMs);
  const runs: Run<null>[] = [];
  for (const line of lines) runs.push(...timeline.push(line, null));
  runs.push(...timeline.finish());
  return runs.flatMap((run) => Array<string>(run.slots).fill(`${run.frame.target}:${run.frame.t}`));
}

test('a frame shows from its time until the next, the first from the start, the last to the end', () => {
  const shown = slots(10, [frame(250), frame(420), frame(430), frame(600)]);
  // 420 is replaced by 430 before any slot shows it.
  assert.deepEqual(shown, ['a:250', 'a:250', 'a:250', 'a:250', 'a:250', 'a:430', 'a:600', 'a:600', 'a:600', 'a:600']);
});

test('frames after the end of the session are left out; the video has exactly the slots asked for', () => {
  assert.deepEqual(slots(3, [frame(0), frame(150), frame(900)]), ['a:0', 'a:0', 'a:150']);
  assert.equal(slots(50, [frame(0)]).length, 50);
});

test('frames only after the end of the session (clocks that disagree): the video shows the newest', () => {
  assert.deepEqual(slots(3, [frame(500), frame(700)]), ['a:700', 'a:700', 'a:700']);
});

test('no frame at all: no runs', () => {
  assert.deepEqual(slots(10, []), []);
  assert.deepEqual(slots(10, [{ k: 't', t: 0, target: 'a', event: 'opened' }]), []);
});

test('the video follows the tab that changed last, staying on a changing tab at least the hold time', () => {
  // A frame shows from the slot at its time. Tab a (shown from 0) changes again at 200, so when b
  // changes at 300 the video stays on a until 1000; b changes again at 1200, so when a changes at
  // 1500 and 1600 the video stays on b until 2000 (1 s after it came to b).
  const shown = slots(25, [frame(0, 'a'), frame(200, 'a'), frame(300, 'b'), frame(1200, 'b'), frame(1500, 'a'), frame(1600, 'a')]);
  assert.deepEqual(shown, [
    ...Array(2).fill('a:0'),
    ...Array(8).fill('a:200'),
    ...Array(2).fill('b:300'),
    ...Array(8).fill('b:1200'),
    ...Array(5).fill('a:1600'),
  ]);
});

test("a tab that has not changed since the video came to it is left at once (a blank start tab before the script's page)", () => {
  // The browser's blank tab paints once at 0; the script's page paints at 300 and animates to 700;
  // the start tab changes at 1800, when the script's page has been shown more than the hold time.
  const shown = slots(25, [frame(0, 'a'), frame(300, 'b'), frame(500, 'b'), frame(700, 'b'), frame(1800, 'a')]);
  assert.deepEqual(shown, [
    ...Array(3).fill('a:0'),
    ...Array(2).fill('b:300'),
    ...Array(2).fill('b:500'),
    ...Array(11).fill('b:700'),
    ...Array(7).fill('a:1800'),
  ]);
});

test('two tabs animating at once: each shown at least the hold time before the other, no flicker', () => {
  const lines: ManifestLine[] = [];
  for (let t = 0; t < 6_000; t++) {
    if (t % 70 === 0) lines.push(frame(t, 'a'));
    if (t % 110 === 0 && t > 0) lines.push(frame(t, 'b'));
  }
  const tabs = slots(60, lines).map((s) => s.split(':')[0]);
  const stretches: number[] = [];
  tabs.forEach((tab, n) => (n > 0 && tab === tabs[n - 1] ? stretches[stretches.length - 1]!++ : stretches.push(1)));
  assert.ok(stretches.length >= 2, 'both tabs are shown');
  assert.ok(
    stretches.slice(0, -1).every((length) => length >= 10),
    `stretches of ${stretches.join(', ')} slots`,
  );
});

test('a tab that closes hands over at once to the open tab that changed last', () => {
  // Each paint of a and b is shown when it comes (neither tab changed after the video came to it);
  // when a closes at 450 the video goes to b at once.
  const shown = slots(10, [frame(0, 'a'), frame(100, 'b'), frame(200, 'a'), { k: 't', t: 450, target: 'a', event: 'closed' }]);
  assert.deepEqual(shown, ['a:0', 'b:100', 'a:200', 'a:200', 'a:200', 'b:100', 'b:100', 'b:100', 'b:100', 'b:100']);
  // While a is still changing, the close still hands over at once.
  const busy = slots(10, [frame(0, 'a'), frame(50, 'a'), frame(100, 'b'), frame(200, 'a'), { k: 't', t: 450, target: 'a', event: 'closed' }]);
  assert.deepEqual(busy, ['a:0', 'a:50', 'a:200', 'a:200', 'a:200', 'b:100', 'b:100', 'b:100', 'b:100', 'b:100']);
});

test('long runs become a clip repeated, the rest encoded with what follows', () => {
  assert.deepEqual(splitRun(2 * HOLD_CLIP_SLOTS - 1), { hold: null, rest: 2 * HOLD_CLIP_SLOTS - 1 });
  assert.deepEqual(splitRun(2 * HOLD_CLIP_SLOTS + 7), { hold: { clip: HOLD_CLIP_SLOTS, reps: 2 }, rest: 7 });
  const plan = new SegmentPlan();
  for (const run of [3, 4, 5 * HOLD_CLIP_SLOTS + 1, 2, 3 * HOLD_CLIP_SLOTS, 6]) plan.add(run);
  const segments = plan.close();
  assert.deepEqual(segments, [
    { frames: 7, reps: 1 },
    { frames: HOLD_CLIP_SLOTS, reps: 5 },
    { frames: 3, reps: 1 },
    { frames: HOLD_CLIP_SLOTS, reps: 3 },
    { frames: 6, reps: 1 },
  ]);
  assert.deepEqual(cutFrames(segments), [7, 7 + HOLD_CLIP_SLOTS, 10 + HOLD_CLIP_SLOTS, 10 + 2 * HOLD_CLIP_SLOTS]);
  // Every slot is in the video once the repeats are counted.
  assert.equal(
    segments.reduce((n, s) => n + s.frames * s.reps, 0),
    3 + 4 + 5 * HOLD_CLIP_SLOTS + 1 + 2 + 3 * HOLD_CLIP_SLOTS + 6,
  );
});
