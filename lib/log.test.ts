import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localIsoTime } from './log';

test('log times are local ISO 8601 with the offset of TZ', () => {
  const saved = process.env.TZ;
  try {
    const at = new Date('2026-11-24T18:20:01.123Z');
    process.env.TZ = 'UTC';
    assert.equal(localIsoTime(at), '2026-11-24T18:20:01.123+00:00');
    process.env.TZ = 'Asia/Kolkata';
    assert.equal(localIsoTime(at), '2026-11-24T23:50:01.123+05:30');
    process.env.TZ = 'America/New_York';
    assert.equal(localIsoTime(at), '2026-11-24T13:20:01.123-05:00');
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
});
