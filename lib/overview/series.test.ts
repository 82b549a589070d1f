import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dailySeries, seriesTotals, utcWindow } from './series';

const zero = { sessions: 0, active: 0, closed: 0, errored: 0, dataApiCalls: 0, dataApiFailed: 0 };

test('the window is the `days` UTC days ending today, oldest first; until is the next UTC midnight', () => {
  const w = utcWindow(3, new Date('2026-03-01T10:00:00.000Z'));
  assert.deepEqual(w.days, ['2026-02-27', '2026-02-28', '2026-03-01']);
  assert.equal(w.from.toISOString(), '2026-02-27T00:00:00.000Z');
  assert.equal(w.until.toISOString(), '2026-03-02T00:00:00.000Z');
  assert.deepEqual(utcWindow(1, new Date('2026-03-01T10:00:00.000Z')).days, ['2026-03-01']);
  // A leap year's February, and a year's turn.
  assert.deepEqual(utcWindow(2, new Date('2028-03-01T00:00:00.000Z')).days, ['2028-02-29', '2028-03-01']);
  assert.deepEqual(utcWindow(2, new Date('2027-01-01T05:00:00.000Z')).days, ['2026-12-31', '2027-01-01']);
});

test('the day edges are UTC midnight, whatever the offset of the clock that reads them', () => {
  // The last millisecond of a UTC day is still that day; the next one starts the next.
  assert.equal(utcWindow(30, new Date('2026-06-15T23:59:59.999Z')).days.at(-1), '2026-06-15');
  assert.equal(utcWindow(30, new Date('2026-06-16T00:00:00.000Z')).days.at(-1), '2026-06-16');
  // 23:30 in New York on the 15th is 03:30 UTC on the 16th.
  assert.equal(utcWindow(30, new Date('2026-06-15T23:30:00-04:00')).days.at(-1), '2026-06-16');
  // 00:30 in Tokyo on the 16th is 15:30 UTC on the 15th.
  assert.equal(utcWindow(30, new Date('2026-06-16T00:30:00+09:00')).days.at(-1), '2026-06-15');
  const w = utcWindow(30, new Date('2026-06-15T23:59:59.999Z'));
  assert.equal(w.days.length, 30);
  assert.equal(w.days[0], '2026-05-17');
});

test('every day of the window is present, zero-filled; rows add up by state and by day; days outside are ignored', () => {
  const now = new Date('2026-03-01T12:00:00.000Z');
  const series = dailySeries(
    4,
    now,
    [
      { day: '2026-02-26', state: 'closed', count: 2 },
      { day: '2026-02-26', state: 'errored', count: 1 },
      { day: '2026-03-01', state: 'active', count: 3 },
      { day: '2026-03-01', state: 'closed', count: 1 },
      { day: '2026-02-25', state: 'closed', count: 50 }, // before the window
      { day: '2026-03-02', state: 'closed', count: 50 }, // after it
    ],
    [
      { day: '2026-02-27', calls: 4, failed: 1 },
      { day: '2026-02-27', calls: 6, failed: 0 }, // a second router, same day
      { day: '2026-03-01', calls: 0, failed: 2 },
      { day: '2026-01-01', calls: 99, failed: 99 },
    ],
  );
  assert.deepEqual(series, [
    { day: '2026-02-26', ...zero, sessions: 3, closed: 2, errored: 1 },
    { day: '2026-02-27', ...zero, dataApiCalls: 10, dataApiFailed: 1 },
    { day: '2026-02-28', ...zero },
    { day: '2026-03-01', ...zero, sessions: 4, active: 3, closed: 1, dataApiFailed: 2 },
  ]);
  assert.deepEqual(seriesTotals(series), { sessions: 7, active: 3, closed: 3, errored: 1, dataApiCalls: 10, dataApiFailed: 3 });
});

test('no activity: a row of zeros for each day, totals zero', () => {
  const series = dailySeries(30, new Date('2026-03-01T12:00:00.000Z'), [], []);
  assert.equal(series.length, 30);
  assert.ok(series.every((row) => row.sessions === 0 && row.dataApiCalls === 0 && row.dataApiFailed === 0));
  assert.deepEqual(seriesTotals(series), zero);
});
