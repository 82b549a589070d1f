// A recording's files (docs/api.md, Recordings): the export's states, the MP4 download with byte
// ranges, manifest, chunks and summary, of a finished recording and of one being written.
// Recordings are made as the capture leaves them (e2e/support/recording-fixture.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blobs } from '../../lib/blobs';
import { db } from '../../lib/db';
import { ENCODE_QUEUE, jobsSchema } from '../../lib/jobs';
import { framesOfChunk, recordingFolder } from '../../lib/recordings/format';
import { call, expectError, expectOk, newUser, signIn, WEB } from '../support/api';
import { eventually } from '../support/connect';
import { jpegSize } from '../support/images';
import { as, CHUNKS, FRAMES, getBytes, MP4, mp4StatusOf, OFFSETS, recordingFixture, summaryOf } from '../support/recording-fixture';
import { seedMember } from '../support/seed';

test('export: 409 not_complete while recording, running for a finished one (once), alreadyReady when the video exists', async () => {
  const user = await newUser('rec-export');
  const member = await newUser('rec-export-m');
  await seedMember(user.workspaceId, member.userId, 'member');

  for (const fixture of [await recordingFixture(user, { session: 'active' }), await recordingFixture(user, { session: 'just-ended', complete: false })]) {
    const res = await call('POST', `/v1/replays/${fixture.id}/export`, as(user));
    expectError(res, 409, 'not_complete');
    assert.equal(await mp4StatusOf(fixture.id), null, 'nothing queued');
  }

  // Never started: the row moves to running and the encode is queued. Any member may ask.
  const finished = await recordingFixture(user);
  assert.deepEqual(expectOk(await call('POST', `/v1/replays/${finished.id}/export`, as(member, user.workspaceId))), { mp4Status: 'running' });
  assert.notEqual(await mp4StatusOf(finished.id), null, 'the recording row took the request');
  const again = expectOk(await call('POST', `/v1/replays/${finished.id}/export`, as(user)));
  assert.ok(
    ['queued', 'running'].includes(again.mp4Status) || again.alreadyReady === true,
    `a second export reports the one under way: ${JSON.stringify(again)}`,
  );
  const jobs = await db.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM ${jobsSchema()}.job WHERE name = $1 AND data->>'recordingId' = $2`,
    ENCODE_QUEUE,
    finished.id,
  );
  assert.equal(jobs[0]!.n, 1, 'one encode job for the recording, however often it is asked');

  // The stack's proxy runs the encoder: the video becomes ready and downloads as an MP4.
  const encoded = await eventually(
    async () => {
      const r = expectOk(await call('GET', `/v1/replays/${finished.id}`, as(user)));
      return r.mp4Status === 'ready' || r.mp4Status === 'failed' ? r : null;
    },
    60_000,
    'the encode to end',
  );
  assert.equal(encoded.mp4Status, 'ready', `the encode ended ${encoded.mp4Status}: ${encoded.mp4Error}`);
  assert.ok(encoded.mp4SizeBytes > 0 && encoded.mp4ReadyAt);
  const video = await getBytes(`/v1/replays/${finished.id}/export/download`, user);
  assert.equal(video.status, 200);
  assert.equal(video.body.length, encoded.mp4SizeBytes);
  assert.equal(video.body.toString('latin1', 4, 8), 'ftyp', 'an MP4');
  assert.deepEqual(expectOk(await call('POST', `/v1/replays/${finished.id}/export`, as(user))), { alreadyReady: true, mp4Status: 'ready' });

  // Failed before, and an orphan (what was captured is encoded): both start again.
  const failed = await recordingFixture(user, { mp4Status: 'failed' });
  await db.recording.update({ where: { id: failed.id }, data: { mp4Error: 'ffmpeg exited with code 1' } });
  assert.deepEqual(expectOk(await call('POST', `/v1/replays/${failed.id}/export`, as(user))), { mp4Status: 'running' });
  const failedRow = await db.recording.findUniqueOrThrow({ where: { id: failed.id } });
  assert.notEqual(failedRow.mp4Error, 'ffmpeg exited with code 1', 'the old failure was cleared');
  const orphan = await recordingFixture(user, { complete: false });
  assert.deepEqual(expectOk(await call('POST', `/v1/replays/${orphan.id}/export`, as(user))), { mp4Status: 'running' });

  // Queued or running already: reported, nothing more asked.
  const queued = await recordingFixture(user, { mp4Status: 'queued' });
  assert.deepEqual(expectOk(await call('POST', `/v1/replays/${queued.id}/export`, as(user))), { mp4Status: 'queued' });
  const running = await recordingFixture(user, { mp4Status: 'running', session: 'active' });
  assert.deepEqual(expectOk(await call('POST', `/v1/replays/${running.id}/export`, as(user))), { mp4Status: 'running' });

  // Ready with its file: nothing to do. Ready but the file is gone: encoded again.
  const ready = await recordingFixture(user, { video: true });
  assert.deepEqual(expectOk(await call('POST', `/v1/replays/${ready.id}/export`, as(user))), { alreadyReady: true, mp4Status: 'ready' });
  assert.equal(await mp4StatusOf(ready.id), 'ready');
  const lost = await recordingFixture(user, { mp4Status: 'ready' });
  assert.deepEqual(expectOk(await call('POST', `/v1/replays/${lost.id}/export`, as(user))), { mp4Status: 'running' });
});

test('download: 409 not_ready until ready; the MP4 whole, in single ranges, 416 outside it; inline for a player', async () => {
  const user = await newUser('rec-dl');
  for (const mp4Status of [null, 'queued', 'running', 'failed'] as const) {
    const fixture = await recordingFixture(user, { mp4Status });
    expectError(await call('GET', `/v1/replays/${fixture.id}/export/download`, as(user)), 409, 'not_ready');
  }
  const { id, sessionId } = await recordingFixture(user, { video: true });
  const url = `/v1/replays/${id}/export/download`;

  const whole = await getBytes(url, user);
  assert.equal(whole.status, 200);
  assert.ok(whole.body.equals(MP4), 'the bytes as stored');
  assert.equal(whole.headers.get('content-type'), 'video/mp4');
  assert.equal(whole.headers.get('accept-ranges'), 'bytes');
  assert.equal(whole.headers.get('content-length'), String(MP4.length));
  assert.equal(whole.headers.get('content-disposition'), `attachment; filename="${sessionId}.mp4"`);
  assert.equal(whole.headers.get('content-range'), null);
  assert.ok(whole.headers.get('x-ratelimit-limit'), 'counted like the rest of the group');
  assert.ok(whole.headers.get('x-request-id'));

  const expectPart = async (range: string, start: number, end: number) => {
    const part = await getBytes(url, user, { range });
    assert.equal(part.status, 206, range);
    assert.equal(part.headers.get('content-range'), `bytes ${start}-${end}/${MP4.length}`, range);
    assert.equal(part.headers.get('content-length'), String(end - start + 1), range);
    assert.equal(part.headers.get('content-type'), 'video/mp4');
    assert.ok(part.body.equals(MP4.subarray(start, end + 1)), `${range}: the bytes of the range`);
  };
  await expectPart('bytes=0-99', 0, 99);
  await expectPart('bytes=0-0', 0, 0);
  await expectPart(`bytes=1000-`, 1000, MP4.length - 1);
  await expectPart('bytes=-500', MP4.length - 500, MP4.length - 1);
  await expectPart(`bytes=${MP4.length - 10}-${MP4.length + 1000}`, MP4.length - 10, MP4.length - 1);
  await expectPart(`bytes=-${MP4.length * 2}`, 0, MP4.length - 1);

  for (const range of [`bytes=${MP4.length}-`, `bytes=${MP4.length + 5}-${MP4.length + 10}`, 'bytes=-0']) {
    const res = await call('GET', url, { ...as(user), headers: { range } });
    expectError(res, 416, 'range_not_satisfiable');
    assert.equal(res.headers.get('content-range'), `bytes */${MP4.length}`, range);
  }
  // Several ranges, or a header that is no byte range: the whole file.
  for (const range of ['bytes=0-9,20-29', 'items=0-9', 'bytes=50-10']) {
    const res = await getBytes(url, user, { range });
    assert.equal(res.status, 200, range);
    assert.ok(res.body.equals(MP4), range);
  }

  const inline = await getBytes(`${url}?inline=1`, user, { range: 'bytes=0-1' });
  assert.equal(inline.status, 206);
  assert.equal(inline.headers.get('content-disposition'), `inline; filename="${sessionId}.mp4"`);
  expectError(await call('GET', `${url}?inline=yes`, as(user)), 400, 'validation_error');

  const head = await getBytes(url, user, { range: 'bytes=10-19' }, 'HEAD');
  assert.equal(head.status, 206);
  assert.equal(head.headers.get('content-range'), `bytes 10-19/${MP4.length}`);
  assert.equal(head.headers.get('content-length'), '10');
  const headWhole = await getBytes(url, user, {}, 'HEAD');
  assert.deepEqual([headWhole.status, headWhole.headers.get('content-length'), headWhole.headers.get('content-type')], [200, String(MP4.length), 'video/mp4']);
  assert.equal(head.body.length, 0);

  // A dashboard session (a <video> element sends the cookie, no header).
  const { cookie } = await signIn(user.email);
  const viaCookie = await fetch(`${WEB}${url}?inline=1`, { headers: { cookie, range: 'bytes=0-15' } });
  assert.equal(viaCookie.status, 206);
  assert.ok(Buffer.from(await viaCookie.arrayBuffer()).equals(MP4.subarray(0, 16)));

  // The row says ready but the file is gone.
  await blobs().deleteFolder(recordingFolder(id));
  expectError(await call('GET', url, as(user)), 409, 'not_ready');
});

test('manifest, chunks and the summary of a finished recording', async () => {
  const user = await newUser('rec-frames');
  const { id, sessionId, startedAt } = await recordingFixture(user);

  const manifest = expectOk(await call('GET', `/v1/replays/${id}/manifest`, as(user)));
  assert.deepEqual(manifest, {
    recordingId: id,
    sessionId,
    format: 'jpeg',
    startedAt: startedAt.toISOString(),
    complete: true,
    chunkCount: 2,
    targets: [
      {
        targetId: 'TARGET-A',
        url: 'https://a.example.test/',
        title: 'Page A',
        openedAt: 0,
        closedAt: null,
        frameCount: 2,
        pages: [{ t: 0, url: 'https://a.example.test/', title: 'Page A' }],
      },
      // about:blank first: not a page of the tab's.
      {
        targetId: 'TARGET-B',
        url: 'https://b.example.test/x',
        title: 'Page B',
        openedAt: 700,
        closedAt: 1_500,
        frameCount: 1,
        pages: [{ t: 750, url: 'https://b.example.test/x', title: 'Page B' }],
      },
    ],
    frames: [
      { index: 0, t: 120, targetId: 'TARGET-A', chunk: 0, offset: OFFSETS.a0, length: FRAMES.a0.length, width: 64, height: 48 },
      { index: 1, t: 560, targetId: 'TARGET-A', chunk: 0, offset: OFFSETS.a1, length: FRAMES.a1.length, width: 64, height: 48 },
      { index: 2, t: 900, targetId: 'TARGET-B', chunk: 1, offset: OFFSETS.b0, length: FRAMES.b0.length, width: 32, height: 24 },
    ],
  });

  // Each frame is where the manifest says, a JPEG of the size it says.
  const chunks = [];
  for (const index of [0, 1]) {
    const chunk = await getBytes(`/v1/replays/${id}/chunks/${index}`, user);
    assert.equal(chunk.status, 200);
    assert.equal(chunk.headers.get('content-type'), 'application/octet-stream');
    assert.equal(chunk.headers.get('content-length'), String(CHUNKS[index]!.length));
    assert.ok(chunk.headers.get('x-ratelimit-limit'));
    assert.ok(chunk.body.equals(CHUNKS[index]!));
    chunks.push(chunk.body);
  }
  for (const frame of manifest.frames) {
    const bytes = chunks[frame.chunk]!.subarray(frame.offset, frame.offset + frame.length);
    assert.deepEqual(jpegSize(bytes), { width: frame.width, height: frame.height });
  }
  assert.deepEqual(
    [...framesOfChunk(chunks[0]!)].map((f) => f.length),
    [FRAMES.a0.length, FRAMES.a1.length],
  );

  expectError(await call('GET', `/v1/replays/${id}/chunks/2`, as(user)), 404, 'not_found');
  expectError(await call('GET', `/v1/replays/${id}/chunks/999999999`, as(user)), 404, 'not_found');
  for (const bad of ['-1', 'abc', '1.5', '1e3', '0x1', '1234567890']) {
    const res = await call('GET', `/v1/replays/${id}/chunks/${bad}`, as(user));
    expectError(res, 400, 'validation_error');
    assert.equal(res.body.error.details[0].path, 'index', bad);
  }

  const summary = expectOk(await call('GET', `/v1/replays/${id}/complete`, as(user)));
  const row = await db.sessionLog.findUniqueOrThrow({ where: { id: sessionId } });
  assert.deepEqual(summary, { ...summaryOf(id, sessionId, startedAt, row.endedAt!), complete: true });
});

test('a recording being written: manifest and chunks so far, the summary 409 not_complete; an orphan gets one computed', async () => {
  const user = await newUser('rec-live');
  const live = await recordingFixture(user, { session: 'active' });
  const manifest = expectOk(await call('GET', `/v1/replays/${live.id}/manifest`, as(user)));
  assert.equal(manifest.complete, false);
  assert.equal(manifest.chunkCount, 2, 'from the frames written so far (the row has 0 until the end)');
  assert.deepEqual(
    manifest.frames.map((f: any) => f.index),
    [0, 1, 2],
    'the half-written last line is left out',
  );
  assert.equal((await getBytes(`/v1/replays/${live.id}/chunks/1`, user)).status, 200);
  expectError(await call('GET', `/v1/replays/${live.id}/complete`, as(user)), 409, 'not_complete');
  const finishing = await recordingFixture(user, { session: 'just-ended', complete: false });
  expectError(await call('GET', `/v1/replays/${finishing.id}/complete`, as(user)), 409, 'not_complete');

  const empty = await recordingFixture(user, { session: 'active', noBlobs: true });
  const none = expectOk(await call('GET', `/v1/replays/${empty.id}/manifest`, as(user)));
  assert.deepEqual([none.chunkCount, none.targets, none.frames], [0, [], []]);
  expectError(await call('GET', `/v1/replays/${empty.id}/chunks/0`, as(user)), 404, 'not_found');

  const orphan = await recordingFixture(user, { complete: false });
  const session = await db.sessionLog.findUniqueOrThrow({ where: { id: orphan.sessionId } });
  const summary = expectOk(await call('GET', `/v1/replays/${orphan.id}/complete`, as(user)));
  assert.deepEqual(summary, {
    ...summaryOf(orphan.id, orphan.sessionId, orphan.startedAt, session.endedAt!),
    durationMs: 1_500, // the last line's time
    duplicatesSkipped: 0, // the row's figure: the capture never wrote its end
    complete: false,
  });
});
