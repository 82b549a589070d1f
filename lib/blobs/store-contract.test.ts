// What every blob store promises (store.ts), run on the filesystem (a temporary directory) and on
// S3 (a real s3rver): streamed writes small and large (a multipart upload on S3) with
// backpressure, put/get/size, missing blobs, byte ranges (across part boundaries), deleting a
// folder of more than one listing page without touching its neighbours, replacing a blob, and a
// store that fails. Each test gets an empty store: its own directory, or its own key prefix.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { startS3Server, type S3Server } from '../../e2e/support/s3-server';
import { readBlobStoreConfig } from './config';
import { FsBlobStore } from './fs-store';
import { BlobNotFound, openBlobStore, type BlobStore, type BlobWriter } from './index';
import { PART_BYTES } from './s3-writer';

interface Subject {
  name: string;
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
  /** An empty store. */
  open(): Promise<BlobStore>;
  /** A store on which every request fails. */
  broken(): Promise<BlobStore>;
}

let tmp: string;
before(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'br-blob-contract-'));
});
after(() => rm(tmp, { recursive: true, force: true }));

let n = 0;
const filesystem: Subject = {
  name: 'filesystem',
  setUp: async () => {},
  tearDown: async () => {},
  open: async () => new FsBlobStore(await mkdtemp(path.join(tmp, 'fs-'))),
  broken: async () => {
    // Its root is under a file: no folder can be made there.
    const file = path.join(tmp, `not-a-folder-${n++}`);
    await writeFile(file, '');
    return new FsBlobStore(path.join(file, 'blobs'));
  },
};

let server: S3Server;
let stopped: S3Server;
const s3: Subject = {
  name: 's3 (s3rver)',
  setUp: async () => {
    [server, stopped] = await Promise.all([startS3Server(), startS3Server()]);
    await stopped.close();
  },
  tearDown: () => server.close(),
  // Through the process's own settings, as blobs() reads them.
  open: async () => openBlobStore(readBlobStoreConfig({ ...server.env, BLOB_STORE: `s3://${server.bucket}/contract-${n++}` })),
  broken: async () => openBlobStore(readBlobStoreConfig(stopped.env)),
};

async function readAll(stream: Readable): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}

/** Writes `data` in pieces, waiting whenever the writer says to; how many times it did. */
async function writeAll(writer: BlobWriter, data: Buffer, piece = 256 * 1024): Promise<number> {
  let waits = 0;
  for (let at = 0; at < data.length; at += piece) {
    if (!writer.write(data.subarray(at, at + piece))) {
      waits++;
      await writer.drained();
    }
  }
  return waits;
}

/** `items` through `run`, `width` at a time. */
async function inParallel<T>(items: T[], width: number, run: (item: T) => Promise<unknown>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(item);
    }),
  );
}

for (const subject of [filesystem, s3]) {
  describe(subject.name, () => {
    before(() => subject.setUp());
    after(() => subject.tearDown());

    test('a small blob written in pieces (text and bytes) reads back whole; counts are in bytes', async () => {
      const store = await subject.open();
      const writer = store.writer('recordings/rec_1/manifest.ndjson');
      assert.equal(writer.write('{"k":"t","café":1}\n'), true);
      assert.equal(writer.write(Buffer.from('second line\n')), true);
      const expected = Buffer.from('{"k":"t","café":1}\nsecond line\n');
      assert.equal(writer.bytesWritten, expected.length);
      assert.ok(writer.pendingBytes <= expected.length);
      await writer.end();
      assert.equal(writer.pendingBytes, 0);
      assert.deepEqual(await store.get('recordings/rec_1/manifest.ndjson'), expected);
      assert.equal(await store.size('recordings/rec_1/manifest.ndjson'), expected.length);
      assert.deepEqual(await readAll(await store.read('recordings/rec_1/manifest.ndjson')), expected);
    });

    test('a writer that is given nothing makes an empty blob', async () => {
      const store = await subject.open();
      await store.writer('traces/trc_1/pages/000000.ndjson').end();
      assert.equal(await store.size('traces/trc_1/pages/000000.ndjson'), 0);
      assert.deepEqual(await store.get('traces/trc_1/pages/000000.ndjson'), Buffer.alloc(0));
    });

    test(
      'a large blob (several parts on S3): write() says to wait, drained() says when, and every byte and range reads back',
      { timeout: 120_000 },
      async () => {
        const store = await subject.open();
        const data = randomBytes(3 * PART_BYTES + 2 * 1024 * 1024 + 333);
        const writer = store.writer('recordings/rec_2/video.mp4');
        // Written without waiting until the writer refuses: it must, well before it holds everything.
        let at = 0;
        const piece = 256 * 1024;
        while (writer.write(data.subarray(at, (at += piece)))) assert.ok(at < data.length, 'write() said to slow down before the end');
        const refusedAt = writer.pendingBytes;
        assert.ok(refusedAt > 0 && refusedAt <= writer.bytesWritten);
        await writer.drained();
        assert.ok(writer.pendingBytes < refusedAt, `drained with ${writer.pendingBytes} bytes pending (refused at ${refusedAt})`);
        await writeAll(writer, data.subarray(at));
        await writer.end();
        assert.equal(writer.bytesWritten, data.length);
        assert.equal(writer.pendingBytes, 0);

        const key = 'recordings/rec_2/video.mp4';
        assert.equal(await store.size(key), data.length);
        assert.ok((await store.get(key))!.equals(data), 'get: every byte');
        assert.ok((await readAll(await store.read(key))).equals(data), 'read: every byte');
        const ranges = [
          [0, 99], // the first bytes
          [1_000_000, 1_234_566], // the middle
          [data.length - 1, data.length - 1], // the last byte
          [PART_BYTES - 3, PART_BYTES + 3], // across the first part's end
          [PART_BYTES - 1, 2 * PART_BYTES], // a whole part and a byte of each neighbour
        ] as const;
        for (const [start, end] of ranges) {
          assert.ok((await readAll(await store.read(key, { start, end }))).equals(data.subarray(start, end + 1)), `bytes ${start}-${end}`);
        }
      },
    );

    test('put, get and size; a blob is replaced whole by a put or a writer', async () => {
      const store = await subject.open();
      await store.put('traces/trc_2/complete.json', '{"eventCount":1000,"pages":1}');
      assert.equal((await store.get('traces/trc_2/complete.json'))!.toString(), '{"eventCount":1000,"pages":1}');
      assert.equal(await store.size('traces/trc_2/complete.json'), 29);
      await store.put('traces/trc_2/complete.json', Buffer.from('{}'));
      assert.equal((await store.get('traces/trc_2/complete.json'))!.toString(), '{}');
      assert.equal(await store.size('traces/trc_2/complete.json'), 2);

      const big = randomBytes(PART_BYTES + 10);
      const writer = store.writer('traces/trc_2/complete.json');
      await writeAll(writer, big);
      await writer.end();
      assert.ok((await store.get('traces/trc_2/complete.json'))!.equals(big));
      await store.put('traces/trc_2/complete.json', 'small again');
      assert.equal((await store.get('traces/trc_2/complete.json'))!.toString(), 'small again');
    });

    test('a missing blob: get and size say null, read fails with BlobNotFound', async () => {
      const store = await subject.open();
      await store.put('recordings/rec_3/chunks/000000.bin', 'x');
      for (const key of ['recordings/rec_3/chunks/000001.bin', 'recordings/rec_none/manifest.ndjson']) {
        assert.equal(await store.get(key), null);
        assert.equal(await store.size(key), null);
        await assert.rejects(store.read(key), BlobNotFound);
        await assert.rejects(store.read(key, { start: 0, end: 0 }), BlobNotFound);
      }
    });

    test('keys are checked: nothing outside the store is named', async () => {
      const store = await subject.open();
      for (const key of ['../x', 'a/../../b', '/abs', 'A/upper', 'a//b', '']) {
        assert.throws(() => store.writer(key), /invalid blob key/);
        await assert.rejects(store.put(key, 'x'), /invalid blob key/);
        await assert.rejects(store.get(key), /invalid blob key/);
        await assert.rejects(store.read(key), /invalid blob key/);
      }
      await assert.rejects(store.deleteFolder('..'), /invalid blob key/);
    });

    test('deleteFolder removes a folder of more than 1,000 blobs (several listing pages) and nothing beside it', { timeout: 120_000 }, async () => {
      const store = await subject.open();
      const inside = Array.from({ length: 1_050 }, (_, i) => `recordings/rec_4/chunks/${String(i).padStart(6, '0')}.bin`);
      inside.push('recordings/rec_4/manifest.ndjson', 'recordings/rec_4/deeper/still/inside.json');
      const beside = ['recordings/rec_40/manifest.ndjson', 'recordings/rec_4.json', 'recordings/rec_5/chunks/000000.bin', 'traces/rec_4/complete.json'];
      await inParallel([...inside, ...beside], 16, (key) => store.put(key, key));
      await store.deleteFolder('recordings/rec_4');
      const left: string[] = [];
      await inParallel(inside, 16, async (key) => {
        if ((await store.size(key)) !== null) left.push(key);
      });
      assert.deepEqual(left, [], 'every blob of the folder is gone');
      for (const key of beside) assert.equal((await store.get(key))?.toString(), key, `${key} is kept`);
      await store.deleteFolder('recordings/rec_none');
    });

    test('a store that fails: writes do not throw, end() and every call reject (a failure is never a missing blob)', async () => {
      const store = await subject.broken();
      const writer = store.writer('recordings/rec_6/chunks/000000.bin');
      writer.write(Buffer.alloc(1024));
      await assert.rejects(writer.end());
      await assert.rejects(store.put('recordings/rec_6/complete.json', '{}'));
      await assert.rejects(store.get('recordings/rec_6/complete.json'));
      await assert.rejects(store.size('recordings/rec_6/complete.json'));
      await assert.rejects(store.read('recordings/rec_6/complete.json'), (error) => !(error instanceof BlobNotFound));
    });
  });
}
