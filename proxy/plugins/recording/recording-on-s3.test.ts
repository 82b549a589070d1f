// A recording kept on S3 (a real s3rver) from capture to seeking, without a browser or a web server:
// the frame store writes real JPEGs as the capture does (chunks past a part, so multipart uploads),
// the encoder reads them back through the store and stores the MP4 through a writer, and the
// download answers byte ranges from it, 206 with exactly the bytes asked for, which is what a
// player's seek is.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { jpegFrames, probeVideo } from '../../../e2e/support/recording-files';
import { startS3Server, type S3Server } from '../../../e2e/support/s3-server';
import { openBlobStore, type BlobStore } from '../../../lib/blobs';
import { readBlobStoreConfig } from '../../../lib/blobs/config';
import { PART_BYTES } from '../../../lib/blobs/s3-writer';
import { ApiError } from '../../../lib/api/errors';
import { BODY_LENGTH_HEADER } from '../../../lib/api/body-length';
import { encodeRecording } from '../../../lib/recordings/encode-video';
import { chunkKey, manifestKey, parseManifest, videoKey, type FrameLine } from '../../../lib/recordings/format';
import { storedVideoResponse } from '../../../lib/recordings/serve-video';
import { VIDEO_FPS } from '../../../lib/recordings/video-timeline';
import { FrameStore } from './frame-store';

let server: S3Server;
let store: BlobStore;
let scratch: string;
before(async () => {
  server = await startS3Server();
  store = openBlobStore(readBlobStoreConfig(server.env));
  scratch = await mkdtemp(path.join(os.tmpdir(), 'br-rec-s3-'));
});
after(async () => {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
});

test('frame store → encode → ranged download, all on S3: the video seeks', { timeout: 180_000 }, async () => {
  // The game of life at a high JPEG quality: frames that do not compress, so chunks outgrow a part.
  const jpegs = await jpegFrames(120, { size: '640x360', source: 'life=ratio=0.5:mold=0', quality: 3 });
  const id = 'rec_s3seek';
  let now = 0;
  const frames = new FrameStore(store, id, 1_000_000_000, () => now);
  frames.targetEvent({ t: 0, target: 'T1', event: 'opened', url: 'https://example.com/', title: 'Example' });
  for (const [i, jpeg] of jpegs.entries()) {
    now = i * 100;
    assert.equal(frames.frame('T1', now, jpeg, 640, 360), 'stored');
    // A capture's frames come a turn of the event loop apart: the uploads get to run.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const durationMs = 12_000;
  const summary = await frames.close({
    recordingId: id,
    sessionId: 'ses_s3seek',
    startedAt: 'a',
    endedAt: 'b',
    durationMs,
    sessionDurationMs: durationMs,
    duplicatesSkipped: 0,
    capStopped: false,
    truncated: null,
  });
  assert.equal(summary.frameCount, 120);
  assert.equal(summary.droppedFrames, 0, 'S3 kept up');
  assert.ok(summary.chunkCount >= 2, `${summary.chunkCount} chunks`);
  assert.ok((await store.size(chunkKey(id, 0)))! > PART_BYTES, 'the first chunk was a multipart upload');
  const lines = parseManifest((await store.get(manifestKey(id)))!.toString()).filter((l): l is FrameLine => l.k === 'f');
  const last = lines.at(-1)!;
  assert.ok(
    (await store.get(chunkKey(id, last.chunk)))!.subarray(last.offset, last.offset + last.length).equals(jpegs.at(-1)!),
    'the manifest points at the frame in its chunk',
  );

  const result = await encodeRecording(store, id);
  assert.equal(result.videoFrames, (durationMs / 1000) * VIDEO_FPS);
  const video = (await store.get(videoKey(id)))!;
  assert.equal(video.length, result.sizeBytes);
  assert.ok(video.length > PART_BYTES, `the MP4 (${video.length} bytes) was stored in parts too`);
  const file = path.join(scratch, 'video.mp4');
  await writeFile(file, video);
  const probe = await probeVideo(file);
  assert.equal(probe.frames, result.videoFrames, 'the stored MP4 plays whole');

  const row = { id, sessionLogId: 'ses_s3seek' };
  const size = video.length;
  const ask = (range: string | null) => storedVideoResponse(store, row, { range, inline: true, head: false });
  const whole = await ask(null);
  assert.equal(whole.status, 200);
  assert.equal(whole.headers.get(BODY_LENGTH_HEADER), String(size));
  assert.ok(Buffer.from(await whole.arrayBuffer()).equals(video));
  const middle = Math.floor(size / 2);
  for (const [range, start, end] of [
    ['bytes=0-1', 0, 1], // a player's first probe
    [`bytes=${middle}-`, middle, size - 1], // a seek to the middle
    [`bytes=${middle - 100}-${middle + 99}`, middle - 100, middle + 99],
    ['bytes=-1', size - 1, size - 1], // the last byte
  ] as const) {
    const response = await ask(range);
    assert.equal(response.status, 206, range);
    assert.equal(response.headers.get('Content-Range'), `bytes ${start}-${end}/${size}`, range);
    assert.equal(response.headers.get(BODY_LENGTH_HEADER), String(end - start + 1), range);
    assert.ok(Buffer.from(await response.arrayBuffer()).equals(video.subarray(start, end + 1)), `${range}: the bytes asked for`);
  }
  await assert.rejects(ask(`bytes=${size}-`), (error: unknown) => error instanceof ApiError && error.code === 'range_not_satisfiable');
  const head = await storedVideoResponse(store, row, { range: 'bytes=10-19', inline: false, head: true });
  assert.equal(head.status, 206);
  assert.equal(head.body, null);
});
