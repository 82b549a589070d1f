// The value encoding on its own: the page code evaluated in Node (it needs nothing the page has
// but Node lacks, except `location` for the size error, which these tests never reach).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CODEC_SOURCE } from './page-scripts-codec';

type Encoded = { plain: true } | { encoded: unknown };
const codec = new Function(`${CODEC_SOURCE}\nreturn { encodeValue, decodeValue };`)() as {
  encodeValue(value: unknown, budget?: { used: number; limit: number }): Encoded;
  decodeValue(encoded: unknown): unknown;
};
const encoded = (value: unknown) => {
  const result = codec.encodeValue(value);
  assert.ok('encoded' in result, 'expected an encoded value');
  return result.encoded;
};
const roundTrip = (value: unknown) => codec.decodeValue(encoded(value));

test('plain JSON stays plain', () => {
  for (const value of ['text', '', 0, 1.5, -7, true, false, null, [], {}, { a: [1, 'b', null, { c: false }] }, [[[]]]]) {
    assert.deepEqual(codec.encodeValue(value), { plain: true }, JSON.stringify(value));
  }
});

test('values JSON cannot hold are encoded in Playwright’s format', () => {
  assert.deepEqual(encoded(undefined), { v: 'undefined' });
  assert.deepEqual(encoded(NaN), { v: 'NaN' });
  assert.deepEqual(encoded(Infinity), { v: 'Infinity' });
  assert.deepEqual(encoded(-Infinity), { v: '-Infinity' });
  assert.deepEqual(encoded(-0), { v: '-0' });
  assert.deepEqual(encoded(12345678901234567890n), { bi: '12345678901234567890' });
  assert.deepEqual(encoded(new Date(Date.UTC(2024, 4, 1, 10))), { d: '2024-05-01T10:00:00.000Z' });
  assert.deepEqual(encoded(/^a+$/gi), { r: { p: '^a+$', f: 'gi' } });
  assert.deepEqual(encoded(new Uint8Array([1, 2, 3, 255])), { ta: { b: 'AQID/w==', k: 'ui8' } });
  assert.deepEqual(encoded(new Uint8Array([1, 2, 3]).buffer), { ab: { b: 'AQID' } });
  // Nested: ids count arrays and objects depth-first from 1; null inside an encoded tree is tagged.
  assert.deepEqual(encoded({ when: new Date(0), list: [1, undefined, null], more: { n: NaN } }), {
    o: [
      { k: 'when', v: { d: '1970-01-01T00:00:00.000Z' } },
      { k: 'list', v: { a: [1, { v: 'undefined' }, { v: 'null' }], id: 2 } },
      { k: 'more', v: { o: [{ k: 'n', v: { v: 'NaN' } }], id: 3 } },
    ],
    id: 1,
  });
  assert.deepEqual(encoded(new Map([['k', new Set([1])]])), { m: [{ k: 'k', v: { s: [1], id: 2 } }], id: 1 });
});

test('every encoded kind decodes to a value of its own type', () => {
  assert.ok(Object.is(roundTrip(-0), -0));
  assert.ok(Number.isNaN(roundTrip(NaN)));
  assert.equal(roundTrip(undefined), undefined);
  assert.equal(roundTrip(12345678901234567890n), 12345678901234567890n);
  const values: unknown[] = [
    new Date(Date.UTC(2024, 4, 1)),
    /x\/y/m,
    new Uint8Array([0, 255]),
    new Int16Array([-2, 3]),
    new Float64Array([1.5, -2]),
    new BigInt64Array([-5n]),
    new Uint8ClampedArray([9]),
    new Uint8Array([7, 8]).buffer,
    new Map<unknown, unknown>([
      [new Date(0), { deep: [Infinity] }],
      ['k', new Set(['a', 'b'])],
    ]),
    { nested: { list: [new Date(1), undefined, -Infinity, { big: 1n }] } },
  ];
  for (const value of values) assert.deepStrictEqual(roundTrip(value), value);
  const error = roundTrip(new TypeError('bad thing')) as Error;
  assert.ok(error instanceof TypeError);
  assert.equal(error.message, 'bad thing');
  assert.equal((roundTrip(new Date(NaN)) as Date).getTime(), NaN);
});

test('a typed array encodes only the bytes it views', () => {
  const view = new Uint8Array([1, 2, 3, 4, 5]).subarray(1, 3);
  assert.deepEqual(encoded(view), { ta: { b: 'AgM=', k: 'ui8' } });
  assert.deepStrictEqual(roundTrip(view), new Uint8Array([2, 3]));
});

test('cycles and shared objects are encoded as refs and come back as they were', () => {
  const loop: Record<string, unknown> = { name: 'loop' };
  loop.self = loop;
  assert.deepEqual(encoded(loop), {
    o: [
      { k: 'name', v: 'loop' },
      { k: 'self', v: { ref: 1 } },
    ],
    id: 1,
  });
  const back = roundTrip(loop) as Record<string, unknown>;
  assert.equal(back.self, back);

  const shared = { n: 1 };
  const pair = roundTrip([shared, shared]) as unknown[];
  assert.deepEqual(pair, [{ n: 1 }, { n: 1 }]);
  assert.equal(pair[0], pair[1]);
});

test('a value that cannot be saved is named', () => {
  assert.throws(() => codec.encodeValue({ file: new Blob(['x']) }), /a Blob cannot be saved/);
  assert.throws(() => codec.encodeValue(new DataView(new ArrayBuffer(2))), /a DataView cannot be saved/);
  assert.throws(() => codec.encodeValue(Symbol('s')), /a symbol cannot be saved/);
});

test('the decoder refuses what it does not know, and keeps a __proto__ key a key', () => {
  assert.throws(() => codec.decodeValue({ bogus: 1 }), /not an encoded value/);
  assert.throws(() => codec.decodeValue({ a: [{ ref: 9 }], id: 1 }), /ref 9 points to no earlier/);
  assert.throws(() => codec.decodeValue({ ta: { b: '', k: 'constructor' } }), /unknown typed array kind/);
  assert.throws(() => codec.decodeValue({ v: 'toString' }), /unknown special value/);
  const odd = codec.decodeValue({ o: [{ k: '__proto__', v: 1 }], id: 1 }) as object;
  assert.equal(Object.getPrototypeOf(odd), Object.prototype);
  assert.deepEqual(Object.keys(odd), ['__proto__']);
});

test('binary data over the budget is refused before it is turned into base64', () => {
  (globalThis as { location?: unknown }).location = { origin: 'http://node.test' };
  try {
    assert.throws(() => codec.encodeValue(new Uint8Array(3000), { used: 0, limit: 3999 }), /http:\/\/node\.test is over 3999 bytes serialized/);
    assert.ok('encoded' in codec.encodeValue(new Uint8Array(3000), { used: 0, limit: 4000 }));
  } finally {
    delete (globalThis as { location?: unknown }).location;
  }
});
