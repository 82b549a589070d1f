import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FINISHING_GRACE_MS, recordingPhase } from './phase';

const now = new Date('2026-12-01T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

test('a complete recording is complete whatever its session says', () => {
  assert.equal(recordingPhase({ complete: true, session: { state: 'active', endedAt: null } }, now), 'complete');
  assert.equal(recordingPhase({ complete: true, session: { state: 'errored', endedAt: ago(60_000) } }, now), 'complete');
});

test('an unfinished recording of a live session is still recording', () => {
  assert.equal(recordingPhase({ complete: false, session: { state: 'active', endedAt: null } }, now), 'recording');
});

test('an unfinished recording is orphaned once its session ended longer ago than the grace', () => {
  assert.equal(recordingPhase({ complete: false, session: { state: 'closed', endedAt: ago(1_000) } }, now), 'recording', 'the capture is still finishing');
  assert.equal(recordingPhase({ complete: false, session: { state: 'closed', endedAt: ago(FINISHING_GRACE_MS - 1) } }, now), 'recording');
  assert.equal(recordingPhase({ complete: false, session: { state: 'closed', endedAt: ago(FINISHING_GRACE_MS) } }, now), 'orphaned');
  assert.equal(recordingPhase({ complete: false, session: { state: 'errored', endedAt: ago(3_600_000) } }, now), 'orphaned');
  assert.equal(recordingPhase({ complete: false, session: { state: 'errored', endedAt: null } }, now), 'orphaned', 'an ended session without an end time');
});
