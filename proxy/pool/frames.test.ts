import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { closeFrame, FrameCounter } from './frames';

function frame(opcode: number, payload: Buffer, { fin = true, mask = false } = {}): Buffer {
  const len = payload.length;
  const ext = len < 126 ? Buffer.alloc(0) : len < 65536 ? Buffer.alloc(2) : Buffer.alloc(8);
  if (ext.length === 2) ext.writeUInt16BE(len);
  if (ext.length === 8) ext.writeBigUInt64BE(BigInt(len));
  const head = Buffer.from([(fin ? 0x80 : 0) | opcode, (mask ? 0x80 : 0) | (len < 126 ? len : len < 65536 ? 126 : 127)]);
  const key = mask ? randomBytes(4) : Buffer.alloc(0);
  const body = mask ? payload.map((b, i) => b ^ key[i % 4]!) : payload;
  return Buffer.concat([head, ext, key, body]);
}

const stream = Buffer.concat([
  frame(0x1, Buffer.from('{"id":1}'), { mask: true }),
  frame(0x2, randomBytes(300)),
  frame(0x1, randomBytes(70_000), { fin: false }),
  frame(0x9, Buffer.alloc(0)),
  frame(0x0, randomBytes(10), { fin: true, mask: true }),
  frame(0x1, Buffer.alloc(0)),
]);

test('counts messages and ends on a boundary however the stream is cut', () => {
  for (const size of [1, 2, 3, 7, 13, 512, 65_536, stream.length]) {
    const counter = new FrameCounter();
    for (let i = 0; i < stream.length; i += size) counter.push(stream.subarray(i, i + size));
    assert.equal(counter.messages, 4, `chunk size ${size}`);
    assert.equal(counter.bytes, stream.length);
    assert.equal(counter.atBoundary, true);
    assert.equal(counter.closeSeen, false);
  }
});

test('knows when it is inside a frame and when a close frame passed', () => {
  const counter = new FrameCounter();
  const big = frame(0x2, randomBytes(1000));
  counter.push(big.subarray(0, 1));
  assert.equal(counter.atBoundary, false); // half a header
  counter.push(big.subarray(1, 500));
  assert.equal(counter.atBoundary, false); // inside the payload
  counter.push(big.subarray(500));
  assert.equal(counter.atBoundary, true);
  counter.push(closeFrame(1000, 'bye'));
  assert.equal(counter.closeSeen, true);
  assert.equal(counter.atBoundary, true);
});

test('close frame carries the code and reason', () => {
  const frameBytes = closeFrame(1011, 'browser closed');
  assert.equal(frameBytes[0], 0x88);
  assert.equal(frameBytes[1], 2 + 'browser closed'.length);
  assert.equal(frameBytes.readUInt16BE(2), 1011);
  assert.equal(frameBytes.subarray(4).toString(), 'browser closed');
});
