// The frame store over a real filesystem blob store: frames land in chunks at the offsets the
// manifest gives, chunks roll over by age, the byte cap refuses what would pass it, a storage
// backlog drops frames (counted) instead of queueing them, and a chunk that could not be stored is
// reported by close().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FsBlobStore } from '../../../lib/blobs/fs-store';
import type { BlobStore, BlobWriter } from '../../../lib/blobs';
import { chunkKey, completeKey, framesOfChunk, manifestKey, parseManifest, type FrameLine } from '../../../lib/recordings/format';
import { FrameStore } from './frame-store';
import { jpegSize } from './jpeg';

const jpeg = (fill: number, size = 100) => Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(size, fill), Buffer.from([0xff, 0xd9])]);

test("frames go to chunks at the manifest's offsets; a chunk rolls over with age; complete.json is written last", async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'frames-'));
  let now = 0;
  const frames = new FrameStore(new FsBlobStore(root), 'rec_a', 1_000_000, () => now);
  frames.targetEvent({ t: 0, target: 'T1', event: 'opened', url: 'about:blank', title: '' });
  assert.equal(frames.frame('T1', 10, jpeg(1), 10, 10), 'stored');
  assert.equal(frames.frame('T1', 20, jpeg(2, 50), 10, 10), 'stored');
  now = 61_000; // older than a chunk may be
  assert.equal(frames.frame('T1', 61_000, jpeg(3), 10, 10), 'stored');
  const summary = await frames.close({
    recordingId: 'rec_a',
    sessionId: 's',
    startedAt: 'a',
    endedAt: 'b',
    durationMs: 61_000,
    sessionDurationMs: 61_000,
    duplicatesSkipped: 0,
    capStopped: false,
    truncated: null,
  });
  assert.equal(summary.frameCount, 3);
  assert.equal(summary.chunkCount, 2);
  assert.deepEqual(summary.targets, [{ targetId: 'T1', url: 'about:blank', title: '', frameCount: 3 }]);
  const file = (key: string) => readFileSync(path.join(root, ...key.split('/')));
  const lines = parseManifest(file(manifestKey('rec_a')).toString()).filter((l): l is FrameLine => l.k === 'f');
  assert.deepEqual(
    lines.map((l) => [l.i, l.chunk, l.offset, l.length]),
    [
      [0, 0, 4, 104],
      [1, 0, 112, 54],
      [2, 1, 4, 104],
    ],
  );
  for (const line of lines)
    assert.deepEqual(
      file(chunkKey('rec_a', line.chunk)).subarray(line.offset, line.offset + line.length),
      [...framesOfChunk(file(chunkKey('rec_a', line.chunk)))][line.chunk === 0 ? line.i : 0],
    );
  assert.equal(JSON.parse(file(completeKey('rec_a')).toString()).frameCount, 3);
});

test('the byte cap refuses the frame that would pass it', () => {
  const frames = new FrameStore(new FsBlobStore(mkdtempSync(path.join(os.tmpdir(), 'frames-'))), 'rec_b', 250);
  assert.equal(frames.frame('T', 0, jpeg(1), 1, 1), 'stored'); // 108 bytes
  assert.equal(frames.frame('T', 1, jpeg(2), 1, 1), 'stored'); // 216
  assert.equal(frames.frame('T', 2, jpeg(3), 1, 1), 'cap');
  assert.equal(frames.sizeBytes, 216);
});

test('frames are dropped and counted while storage is behind', () => {
  // A store that never gets anything onto storage.
  const slow = (): BlobWriter => {
    let pending = 0;
    return {
      write: (d) => {
        pending += Buffer.byteLength(d);
        return false;
      },
      get pendingBytes() {
        return pending;
      },
      bytesWritten: 0,
      drained: () => new Promise(() => {}),
      end: () => new Promise(() => {}),
    };
  };
  const store = { writer: slow } as unknown as BlobStore;
  const frames = new FrameStore(store, 'rec_c', 1e12);
  const big = jpeg(1, 9 * 1024 * 1024);
  assert.equal(frames.frame('T', 0, big, 1, 1), 'stored');
  assert.equal(frames.frame('T', 1, big, 1, 1), 'stored');
  assert.equal(frames.frame('T', 2, big, 1, 1), 'dropped');
  assert.equal(frames.droppedFrames, 1);
  assert.equal(frames.frameCount, 2);
});

test('a chunk that could not be stored fails close(), not the process, even when it failed long before', async () => {
  const failing = (): BlobWriter => ({
    write: () => true,
    pendingBytes: 0,
    bytesWritten: 0,
    drained: async () => {},
    end: () => Promise.reject(new Error('could not store blob')),
  });
  const store = { writer: failing, put: async () => {} } as unknown as BlobStore;
  let now = 0;
  const frames = new FrameStore(store, 'rec_d', 1e12, () => now);
  assert.equal(frames.frame('T', 0, jpeg(1), 1, 1), 'stored');
  now = 61_000; // the first chunk is ended here, and fails
  assert.equal(frames.frame('T', now, jpeg(2), 1, 1), 'stored');
  // A turn of the event loop: an unhandled rejection would be reported by now.
  await new Promise((resolve) => setImmediate(resolve));
  await assert.rejects(
    frames.close({
      recordingId: 'rec_d',
      sessionId: 's',
      startedAt: 'a',
      endedAt: 'b',
      durationMs: 1,
      sessionDurationMs: 1,
      duplicatesSkipped: 0,
      capStopped: false,
      truncated: null,
    }),
    /could not store blob/,
  );
});

test('jpegSize reads the frame header of a real JPEG', async () => {
  const { execFileSync } = await import('node:child_process');
  const real = execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=322x180',
    '-frames:v',
    '1',
    '-f',
    'image2pipe',
    '-c:v',
    'mjpeg',
    '-',
  ]);
  assert.deepEqual(jpegSize(real), { width: 322, height: 180 });
  assert.equal(jpegSize(Buffer.from('not a jpeg')), null);
});
