import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventsQuery, listTracesQuery, TRACES_DEFAULT_WINDOW_MS } from './schemas';

test('the list: limit 50 by default, since the last 24 hours unless a session is asked for', () => {
  const before = Date.now();
  const plain = listTracesQuery.parse({});
  assert.equal(plain.limit, 50);
  assert.ok(plain.since! >= before - TRACES_DEFAULT_WINDOW_MS && plain.since! <= Date.now() - TRACES_DEFAULT_WINDOW_MS);
  assert.deepEqual(listTracesQuery.parse({ session_id: 's1' }), { limit: 50, session_id: 's1', since: null }, "a session's trace whenever it started");
  assert.deepEqual(listTracesQuery.parse({ session_id: 's1', since: '1000', limit: '200' }), { limit: 200, session_id: 's1', since: 1000 });
  for (const bad of [{ limit: '0' }, { limit: '201' }, { limit: 'x' }, { since: 'yesterday' }, { since: '-1' }, { since: '1.5' }, { since: '9e20' }]) {
    assert.equal(listTracesQuery.safeParse(bad).success, false, JSON.stringify(bad));
  }
});

test('events: a page from 0 in digits, a download format, never both', () => {
  assert.deepEqual(eventsQuery.parse({}), {});
  assert.deepEqual(eventsQuery.parse({ page: '0' }), { page: 0 });
  assert.deepEqual(eventsQuery.parse({ page: '12' }), { page: 12 });
  for (const format of ['json', 'gz', 'har'] as const) assert.deepEqual(eventsQuery.parse({ download: format }), { download: format });
  for (const bad of [
    { page: '-1' },
    { page: 'x' },
    { page: '1.5' },
    { page: '' },
    { page: '1e3' },
    { page: '1234567890' },
    { download: 'xml' },
    { download: '' },
    { page: '0', download: 'json' },
  ]) {
    assert.equal(eventsQuery.safeParse(bad).success, false, JSON.stringify(bad));
  }
  const both = eventsQuery.safeParse({ page: '0', download: 'gz' });
  assert.deepEqual(
    both.error?.issues.map((i) => [i.path.join('.'), i.message]),
    [['download', 'use either page or download, not both']],
  );
});
