// How an IndexedDB key or value that is not plain JSON is written into a saved profile. The format is
// the one Playwright's storageState uses (its utilityScriptSerializers), so a state exported from
// Playwright imports unchanged and our captures load into Playwright's `storageState` option.
//
// A record holds `key` / `value` when the key or value is plain JSON: null, booleans, strings, finite
// numbers other than -0, and arrays and plain objects of those, with no array or object reached
// twice. Anything else goes into `keyEncoded` / `valueEncoded`, a tree of:
//
//   string, boolean, finite number     itself
//   undefined, null, NaN, ±Infinity, -0 { v: 'undefined' | 'null' | 'NaN' | 'Infinity' | '-Infinity' | '-0' }
//   BigInt                             { bi: '12345678901234567890' }
//   Date                               { d: '2024-05-01T10:00:00.000Z' }     (an invalid Date: { d: 'Invalid Date' })
//   RegExp                             { r: { p: source, f: flags } }
//   Error                              { e: { n: name, m: message, s: stack } }
//   ArrayBuffer                        { ab: { b: base64 } }
//   typed array                        { ta: { b: base64 of the viewed bytes, k: kind } }
//                                      kind: i8 ui8 ui8c i16 ui16 i32 ui32 f32 f64 bi64 bui64, and f16 (ours)
//   Array                              { a: [item, …], id }
//   plain object                       { o: [{ k: name, v: item }, …], id }
//   Map                                { m: [{ k: key, v: item }, …], id }
//   Set                                { s: [item, …], id }
//   an Array/object/Map/Set met before { ref: id }
//
// `id` counts from 1 within one key or one value, in depth-first order, so cycles and shared objects
// come back as they were. Reading also accepts { u: href } (a URL). Where we differ from Playwright's
// writer: -0 is encoded (Playwright stores it as a plain 0), and a cycle or a shared object makes the
// value encoded (Playwright writes a circular plain object as `value`, which JSON cannot hold).
// A value of another type (Blob, File, ImageData, CryptoKey, DataView, boxed primitives) cannot be
// saved: reading throws and names it.
//
// The code below runs in the page, so it is plain JavaScript sent as text: a TypeScript function
// would carry the transpiler's helpers (`__name`), which the page does not have.
export const CODEC_SOURCE = String.raw`
const TYPED_ARRAY_KINDS = { i8: 'Int8Array', ui8: 'Uint8Array', ui8c: 'Uint8ClampedArray', i16: 'Int16Array', ui16: 'Uint16Array', i32: 'Int32Array', ui32: 'Uint32Array', f16: 'Float16Array', f32: 'Float32Array', f64: 'Float64Array', bi64: 'BigInt64Array', bui64: 'BigUint64Array' };
const ERROR_NAMES = ['Error', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError'];
const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
// Plain assignment would turn a '__proto__' entry into a prototype change.
const setOwn = (object, key, value) => Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });

function sizeError(limit) {
  const error = new Error('the storage of ' + location.origin + ' is over ' + limit + ' bytes serialized, more than a profile may hold');
  error.name = 'ProfileTooLarge';
  return error;
}

/** UTF-8 bytes of a string (a lone surrogate counts as two, as JSON escapes it anyway). */
function utf8Length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    bytes += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3;
  }
  return bytes;
}

function toBase64(bytes) {
  if (typeof bytes.toBase64 === 'function') return bytes.toBase64();
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text) {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * { plain: true } when the value is plain JSON, else { encoded }. With a budget ({ used, limit },
 * bytes), binary data that cannot fit is refused before it is turned into base64.
 */
function encodeValue(value, budget) {
  const ids = new Map();
  let lastId = 0;
  let plain = true;
  const binary = (view) => {
    const bytes = new Uint8Array(view.buffer || view, view.byteOffset || 0, view.byteLength);
    if (budget && budget.used + Math.ceil(bytes.length / 3) * 4 > budget.limit) throw sizeError(budget.limit);
    return toBase64(bytes);
  };
  const walk = (v) => {
    if (v === null) return { v: 'null' };
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        if (Number.isFinite(v) && !Object.is(v, -0)) return v;
        plain = false;
        return { v: Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : '-0' };
      case 'undefined':
        plain = false;
        return { v: 'undefined' };
      case 'bigint':
        plain = false;
        return { bi: v.toString() };
      case 'object':
        break;
      default:
        throw new Error('a ' + typeof v + ' cannot be saved');
    }
    const seen = ids.get(v);
    if (seen) {
      plain = false;
      return { ref: seen };
    }
    const proto = Object.getPrototypeOf(v);
    if (Array.isArray(v) || proto === Object.prototype || proto === null) {
      const id = ++lastId;
      ids.set(v, id);
      if (Array.isArray(v)) {
        const a = [];
        for (let i = 0; i < v.length; i++) a.push(walk(v[i]));
        return { a, id };
      }
      return { o: Object.keys(v).map((k) => ({ k, v: walk(v[k]) })), id };
    }
    plain = false;
    const tag = Object.prototype.toString.call(v);
    if (tag === '[object Date]') return { d: Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString() };
    if (tag === '[object RegExp]') return { r: { p: v.source, f: v.flags } };
    if (tag === '[object Error]') return { e: { n: String(v.name), m: String(v.message), s: v.stack } };
    if (tag === '[object ArrayBuffer]') return { ab: { b: binary(v) } };
    for (const k in TYPED_ARRAY_KINDS) {
      if (tag === '[object ' + TYPED_ARRAY_KINDS[k] + ']') return { ta: { b: binary(v), k } };
    }
    if (tag === '[object Map]' || tag === '[object Set]') {
      const id = ++lastId;
      ids.set(v, id);
      if (tag === '[object Set]') return { s: Array.from(v, walk), id };
      return { m: Array.from(v, (entry) => ({ k: walk(entry[0]), v: walk(entry[1]) })), id };
    }
    throw new Error('a ' + tag.slice(8, -1) + ' cannot be saved');
  };
  const encoded = walk(value);
  return plain ? { plain: true } : { encoded };
}

/** The value an encoded tree stands for (ours or Playwright's). */
function decodeValue(value) {
  const refs = new Map();
  const walk = (x) => {
    if (x === null || typeof x !== 'object') return x;
    if (own(x, 'ref')) {
      if (!refs.has(x.ref)) throw new Error('ref ' + x.ref + ' points to no earlier array or object');
      return refs.get(x.ref);
    }
    if (own(x, 'v')) {
      const special = { undefined: undefined, null: null, NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };
      if (typeof x.v !== 'string' || !own(special, x.v)) throw new Error('unknown special value ' + JSON.stringify(x.v));
      return special[x.v];
    }
    if (own(x, 'd')) return new Date(x.d);
    if (own(x, 'bi')) return BigInt(x.bi);
    if (own(x, 'r')) return new RegExp(x.r.p, x.r.f);
    if (own(x, 'u')) return new URL(x.u);
    if (own(x, 'e')) {
      const Type = ERROR_NAMES.includes(x.e.n) ? globalThis[x.e.n] : Error;
      const error = new Type(x.e.m);
      if (error.name !== x.e.n) error.name = x.e.n;
      if (typeof x.e.s === 'string') error.stack = x.e.s;
      return error;
    }
    if (own(x, 'ab')) return fromBase64(x.ab.b).buffer;
    if (own(x, 'ta')) {
      const Type = own(TYPED_ARRAY_KINDS, x.ta.k) ? globalThis[TYPED_ARRAY_KINDS[x.ta.k]] : undefined;
      if (typeof Type !== 'function') throw new Error('unknown typed array kind ' + JSON.stringify(x.ta.k));
      return new Type(fromBase64(x.ta.b).buffer);
    }
    if (own(x, 'a')) {
      const out = [];
      refs.set(x.id, out);
      for (const item of x.a) out.push(walk(item));
      return out;
    }
    if (own(x, 'o')) {
      const out = {};
      refs.set(x.id, out);
      for (const entry of x.o) setOwn(out, entry.k, walk(entry.v));
      return out;
    }
    if (own(x, 'm')) {
      const out = new Map();
      refs.set(x.id, out);
      for (const entry of x.m) out.set(walk(entry.k), walk(entry.v));
      return out;
    }
    if (own(x, 's')) {
      const out = new Set();
      refs.set(x.id, out);
      for (const item of x.s) out.add(walk(item));
      return out;
    }
    throw new Error('not an encoded value: ' + JSON.stringify(x).slice(0, 120));
  };
  return walk(value);
}
`;
