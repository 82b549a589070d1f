import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clip, pageKey, pagesOf, parsePage, traceFolder } from './format';

test('pages: 1,000 events each, keys in order, a torn last line skipped', () => {
  assert.equal(pagesOf(0), 0);
  assert.equal(pagesOf(1), 1);
  assert.equal(pagesOf(1_000), 1);
  assert.equal(pagesOf(1_001), 2);
  assert.equal(pageKey('trc_AB', 12), 'traces/trc_ab/pages/000012.ndjson');
  assert.equal(traceFolder('trc_AB'), 'traces/trc_ab');
  assert.deepEqual(parsePage('{"seq":0}\n{"seq":1}\n{"seq":2,"t"'), [{ seq: 0 }, { seq: 1 }]);
});

test('long texts are cut with an ellipsis at the limit', () => {
  assert.equal(clip('abc', 5), 'abc');
  assert.equal(clip('abcdef', 5), 'abcd…');
  assert.equal(clip('abcdef', 5).length, 5);
});
