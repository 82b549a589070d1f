// The one framing module every relay uses: message counting, frame and message boundaries, close frames
// (code and reason read back, masked or not, cut anywhere), the frame reader, and close frames
// of ours at the 123-byte reason limit whatever the reason's script.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import WebSocket from 'ws';
import {
  closeFrame,
  fitCloseReason,
  FrameCounter,
  FrameReader,
  maskedTextFrame,
  MAX_CLOSE_REASON_BYTES,
  parseHeader,
  payloadOf,
  serverTextFrame,
  utf8Prefix,
} from './frames';

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

const closePayload = (code: number, reason: string) => {
  const text = Buffer.from(reason, 'utf8');
  const payload = Buffer.alloc(2 + text.length);
  payload.writeUInt16BE(code, 0);
  text.copy(payload, 2);
  return payload;
};

/** Pushes `stream` into a counter in chunks of `size` bytes. */
function counted(stream: Buffer, size: number): FrameCounter {
  const counter = new FrameCounter();
  for (let i = 0; i < stream.length; i += size) counter.push(stream.subarray(i, i + size));
  return counter;
}

// A text message, a binary one, a fragmented text message with a ping between its fragments,
// and an empty text message: four messages.
const stream = Buffer.concat([
  frame(0x1, Buffer.from('{"id":1}'), { mask: true }),
  frame(0x2, randomBytes(300)),
  frame(0x1, randomBytes(70_000), { fin: false }),
  frame(0x9, Buffer.alloc(0)),
  frame(0x0, randomBytes(10), { fin: false, mask: true }),
  frame(0xa, Buffer.from('pong')),
  frame(0x0, randomBytes(10), { fin: true, mask: true }),
  frame(0x1, Buffer.alloc(0)),
]);

test('counts messages (a fragmented one once, control frames between its fragments not at all) however the stream is cut', () => {
  for (const size of [1, 2, 3, 7, 13, 512, 65_536, stream.length]) {
    const counter = counted(stream, size);
    assert.equal(counter.messages, 4, `chunk size ${size}`);
    assert.equal(counter.bytes, stream.length);
    assert.equal(counter.atBoundary, true);
    assert.equal(counter.close, null);
    assert.equal(counter.closing, false);
  }
});

test('any split of any stream gives the same count and ends on a boundary', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({ payload: fc.oneof(fc.integer({ min: 0, max: 125 }), fc.integer({ min: 126, max: 70_000 })), masked: fc.boolean(), fin: fc.boolean() }),
        { minLength: 1, maxLength: 12 },
      ),
      fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 40 }),
      (frames, cuts) => {
        const bytes = Buffer.concat(
          frames.map((f, i) => frame(i === 0 || frames[i - 1]!.fin ? 1 : 0, Buffer.alloc(f.payload, 0x41), { fin: f.fin, mask: f.masked })),
        );
        const counter = new FrameCounter();
        let at = 0;
        for (const cut of cuts) {
          if (at >= bytes.length) break;
          counter.push(bytes.subarray(at, at + cut));
          at += cut;
        }
        if (at < bytes.length) counter.push(bytes.subarray(at));
        return counter.messages === frames.filter((f) => f.fin).length && counter.bytes === bytes.length && counter.atBoundary;
      },
    ),
    { seed: 42, numRuns: 300 },
  );
});

test('a 64-bit length is read whole: a 5 GB frame header announces 5 GB, and the counter waits for all of it', () => {
  const header = Buffer.from([0x82, 127, 0, 0, 0, 1, 0x40, 0, 0, 0]); // 0x1_4000_0000 = 5 GiB
  const parsed = parseHeader(header, 0)!;
  assert.equal(parsed.payloadLength, 5 * 1024 ** 3);
  assert.equal(parsed.headerLength, 10);
  const counter = new FrameCounter();
  counter.push(header);
  counter.push(Buffer.alloc(1024));
  assert.equal(counter.atBoundary, false);
  assert.equal(counter.messages, 1, 'a final frame counts when its header is read');
  // Only the first 9 bytes of the header: not a frame yet.
  assert.equal(parseHeader(header.subarray(0, 9), 0), null);
});

test('knows when it is inside a frame and reads a close frame’s code and reason, masked, cut anywhere', () => {
  const big = frame(0x2, randomBytes(1000));
  const counter = new FrameCounter();
  counter.push(big.subarray(0, 1));
  assert.equal(counter.atBoundary, false); // half a header
  counter.push(big.subarray(1, 500));
  assert.equal(counter.atBoundary, false); // inside the payload
  counter.push(big.subarray(500));
  assert.equal(counter.atBoundary, true);
  for (const mask of [false, true]) {
    const close = frame(0x8, closePayload(4001, 'gone — über'), { mask });
    for (let cut = 1; cut < close.length; cut++) {
      const c = new FrameCounter();
      c.push(close.subarray(0, cut));
      assert.equal(c.close, null, `cut ${cut}: not whole yet`);
      c.push(close.subarray(cut));
      assert.deepEqual(c.close, { code: 4001, reason: 'gone — über' }, `cut ${cut}, mask ${mask}`);
      assert.equal(c.messages, 0, 'a close frame is not a message');
    }
  }
  const empty = new FrameCounter();
  empty.push(frame(0x8, Buffer.alloc(0)));
  assert.deepEqual(empty.close, { code: null, reason: '' });
});

test('message boundaries: inside a fragmented message (control frames between its fragments too) a frame boundary is not a message boundary', () => {
  // After each frame of the stream: [between frames, between messages].
  const expected = [
    [true, true],
    [true, true],
    [true, false],
    [true, false],
    [true, false],
    [true, false],
    [true, true],
    [true, true],
  ];
  const frames = new FrameReader().push(stream);
  const counter = new FrameCounter();
  frames.forEach((f, i) => {
    // Cut inside every frame: neither boundary holds there.
    const cut = Math.max(1, f.bytes.length >> 1);
    counter.push(f.bytes.subarray(0, cut));
    assert.deepEqual([counter.atBoundary, counter.atMessageBoundary], [false, false], `inside frame ${i}`);
    counter.push(f.bytes.subarray(cut));
    assert.deepEqual([counter.atBoundary, counter.atMessageBoundary], expected[i], `after frame ${i}`);
  });
});

test('text frames of ours (server to client) are unmasked, and read back as sent whatever their length', () => {
  for (const text of ['', '{"method":"Inspector.detached"}', 'é'.repeat(200), 'x'.repeat(70_000)]) {
    const [read, ...rest] = new FrameReader().push(serverTextFrame(text));
    assert.deepEqual(rest, []);
    assert.deepEqual([read!.fin, read!.opcode, read!.masked], [true, 0x1, false]);
    assert.equal(payloadOf(read!).toString('utf8'), text);
  }
});

test('close frames of ours: the reason is cut at 123 bytes on a character boundary, and a real client accepts the frame', async () => {
  assert.equal(closeFrame(4008, 'idle timeout').readUInt16BE(2), 4008);
  const reasons = ['x'.repeat(123), 'x'.repeat(124), 'é'.repeat(100), '日本'.repeat(60), `${'a'.repeat(122)}😀`, '😀'.repeat(40)];
  for (const reason of reasons) {
    const f = closeFrame(4000, reason);
    assert.equal(f[0], 0x88);
    assert.ok(f[1]! <= 125, `payload ${f[1]} for ${reason.length} chars`);
    assert.equal(f.length, 2 + f[1]!);
    const back = f.subarray(4).toString('utf8');
    assert.ok(reason.startsWith(back), 'a prefix of the reason, no broken character');
    assert.ok(Buffer.byteLength(back) <= MAX_CLOSE_REASON_BYTES);
    assert.ok(Buffer.byteLength(back) > MAX_CLOSE_REASON_BYTES - 4, 'as much as fits');
    const counter = new FrameCounter();
    counter.push(f);
    assert.deepEqual(counter.close, { code: 4000, reason: back });
  }
  for (const reason of reasons) assert.equal(fitCloseReason(reason), closeFrame(4000, reason).subarray(4).toString('utf8'), 'the text a close frame carries');
  assert.equal(utf8Prefix('abc', 10).toString(), 'abc');
  assert.equal(utf8Prefix('aé', 2).toString(), 'a');

  // The ws library validates close frames strictly (length, UTF-8): it must read ours as sent.
  const { createServer } = await import('node:net');
  const longReason = '関数'.repeat(50);
  const server = createServer((socket) => {
    socket.once('data', (req) => {
      const key = /sec-websocket-key: (.+)\r\n/i.exec(req.toString())![1]!.trim();
      import('./handshake').then(({ switchingProtocols }) => {
        socket.write(switchingProtocols(key, []));
        socket.write(closeFrame(4002, longReason));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const ws = new WebSocket(`ws://127.0.0.1:${port}`);
  ws.on('error', () => {});
  const [code, reason] = await new Promise<[number, string]>((resolve) => ws.once('close', (c, r) => resolve([c, r.toString()])));
  server.close();
  assert.equal(code, 4002);
  assert.ok(longReason.startsWith(reason) && reason.length > 0, `ws read "${reason}"`);
});

test('the frame reader returns whole frames as their bytes, however the stream is cut, and unmasks payloads', () => {
  for (const size of [1, 5, 14, 100, 70_001, stream.length]) {
    const reader = new FrameReader();
    const frames = [];
    for (let i = 0; i < stream.length; i += size) frames.push(...reader.push(stream.subarray(i, i + size)));
    assert.equal(frames.length, 8, `chunk size ${size}`);
    assert.deepEqual(Buffer.concat(frames.map((f) => f.bytes)), stream);
    assert.equal(payloadOf(frames[0]!).toString(), '{"id":1}');
    assert.deepEqual(
      frames.map((f) => f.opcode),
      [1, 2, 1, 9, 0, 0xa, 0, 1],
    );
  }
  const injected = maskedTextFrame('x'.repeat(70_000));
  const [read] = new FrameReader().push(injected);
  assert.ok(read!.masked);
  assert.equal(payloadOf(read!).toString(), 'x'.repeat(70_000));
});
