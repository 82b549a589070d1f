import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseByteRange } from './byte-range';

test('no header, or one that is not a single byte range, means the whole file', () => {
  assert.deepEqual(parseByteRange(null, 100), { kind: 'whole' });
  assert.deepEqual(parseByteRange('', 100), { kind: 'whole' });
  assert.deepEqual(parseByteRange('items=0-5', 100), { kind: 'whole' });
  assert.deepEqual(parseByteRange('bytes=abc', 100), { kind: 'whole' });
  assert.deepEqual(parseByteRange('bytes=-', 100), { kind: 'whole' });
  assert.deepEqual(parseByteRange('bytes=9-3', 100), { kind: 'whole' }, 'last before first is invalid, so ignored');
  assert.deepEqual(parseByteRange('bytes=0-1, 5-9', 100), { kind: 'whole' }, 'several ranges: the whole file');
});

test('bytes=a-b, clamped to the file', () => {
  assert.deepEqual(parseByteRange('bytes=0-0', 100), { kind: 'partial', start: 0, end: 0 });
  assert.deepEqual(parseByteRange('bytes=0-99', 100), { kind: 'partial', start: 0, end: 99 });
  assert.deepEqual(parseByteRange('bytes=10-19', 100), { kind: 'partial', start: 10, end: 19 });
  assert.deepEqual(parseByteRange('bytes=90-1000', 100), { kind: 'partial', start: 90, end: 99 });
  assert.deepEqual(parseByteRange('Bytes = 5 - 6', 100), { kind: 'partial', start: 5, end: 6 });
});

test('bytes=a- and bytes=-n', () => {
  assert.deepEqual(parseByteRange('bytes=40-', 100), { kind: 'partial', start: 40, end: 99 });
  assert.deepEqual(parseByteRange('bytes=99-', 100), { kind: 'partial', start: 99, end: 99 });
  assert.deepEqual(parseByteRange('bytes=-10', 100), { kind: 'partial', start: 90, end: 99 });
  assert.deepEqual(parseByteRange('bytes=-500', 100), { kind: 'partial', start: 0, end: 99 }, 'a suffix longer than the file is the whole file, as 206');
});

test('a range starting past the end, an empty suffix or an empty file is unsatisfiable', () => {
  assert.deepEqual(parseByteRange('bytes=100-', 100), { kind: 'unsatisfiable' });
  assert.deepEqual(parseByteRange('bytes=100-200', 100), { kind: 'unsatisfiable' });
  assert.deepEqual(parseByteRange('bytes=-0', 100), { kind: 'unsatisfiable' });
  assert.deepEqual(parseByteRange('bytes=0-', 0), { kind: 'unsatisfiable' });
  assert.deepEqual(parseByteRange('bytes=-5', 0), { kind: 'unsatisfiable' });
});
