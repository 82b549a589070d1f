import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { closeFrame, FrameCounter } from './frame-counter';

function frame(opts: { fin?: boolean; opcode?: number; payload: number; masked?: boolean }): Buffer {
  const { fin = true, opcode = 1, payload, masked = false } = opts;
  const parts: Buffer[] = [];
  const b0 = (fin ? 0x80 : 0) | opcode;
  const maskBit = masked ? 0x80 : 0;
  if (payload < 126) parts.push(Buffer.from([b0, maskBit | payload]));
  else if (payload < 65536) {
    const h = Buffer.alloc(4);
    h[0] = b0; h[1] = maskBit | 126; h.writeUInt16BE(payload, 2);
    parts.push(h);
  } else {
    const h = Buffer.alloc(10);
    h[0] = b0; h[1] = maskBit | 127; h.writeBigUInt64BE(BigInt(payload), 2);
    parts.push(h);
  }
  if (masked) parts.push(Buffer.from([1, 2, 3, 4]));
  parts.push(Buffer.alloc(payload, 0x41));
  return Buffer.concat(parts);
}

test('counts complete data messages, not control frames or fragments', () => {
  const counter = new FrameCounter();
  counter.push(Buffer.concat([
    frame({ payload: 10 }),
    frame({ opcode: 2, payload: 300, masked: true }),
    frame({ opcode: 9, payload: 0 }), // ping
    frame({ fin: false, payload: 5 }), frame({ fin: false, opcode: 0, payload: 5 }), frame({ opcode: 0, payload: 5 }), // one fragmented message
    frame({ payload: 70_000 }),
  ]));
  assert.equal(counter.messages, 4);
  assert.ok(counter.atBoundary);
});

test('any split of the stream into chunks gives the same count', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ payload: fc.oneof(fc.integer({ min: 0, max: 125 }), fc.integer({ min: 126, max: 70_000 })), masked: fc.boolean(), fin: fc.boolean() }), { minLength: 1, maxLength: 12 }),
      fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 40 }),
      (frames, cuts) => {
        const stream = Buffer.concat(frames.map((f, i) => frame({ ...f, opcode: i === 0 || frames[i - 1]!.fin ? 1 : 0 })));
        const expected = frames.filter((f) => f.fin).length;
        const counter = new FrameCounter();
        let at = 0;
        for (const cut of cuts) {
          if (at >= stream.length) break;
          counter.push(stream.subarray(at, at + cut));
          at += cut;
        }
        if (at < stream.length) counter.push(stream.subarray(at));
        return counter.messages === expected && counter.bytes === stream.length && counter.atBoundary;
      },
    ),
    { seed: 42, numRuns: 300 },
  );
});

test('closeFrame is a valid unmasked close frame', () => {
  const f = closeFrame(4008, 'idle timeout');
  assert.equal(f[0], 0x88);
  assert.equal(f[1], 2 + 'idle timeout'.length);
  assert.equal(f.readUInt16BE(2), 4008);
  const counter = new FrameCounter();
  counter.push(f);
  assert.equal(counter.messages, 0);
  assert.ok(counter.atBoundary);
});
