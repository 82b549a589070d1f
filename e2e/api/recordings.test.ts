// Recordings (docs/api.md, Recordings): the list and its filters, one recording and `orphaned`,
// the export's states, the MP4 download with byte ranges, manifest, chunks and summary, delete,
// roles, other workspaces and credentials. Recordings are made as the capture leaves them: a
// session row, a recording row, and blobs in the storage layout of lib/recordings/format.ts under
// the stack's DATA_DIR, with real JPEG frames and a real MP4 made by ffmpeg.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blobs } from '../../lib/blobs';
import { db } from '../../lib/db';
import { ENCODE_QUEUE, jobsSchema } from '../../lib/jobs';
import { chunkKey, completeKey, framesOfChunk, manifestKey, recordingFolder, videoKey, type CompleteSummary, type ManifestLine } from '../../lib/recordings/format';
import { call, expectError, expectOk, newUser, signIn, WEB, type TestUser } from '../support/api';
import { eventually } from '../support/connect';
import { jpegSize } from '../support/images';
import { seedMember, seedRecording, seedRouter, seedSession } from '../support/seed';

const DAY_MS = 86_400_000;
const recordingFields = [
  'capStopped', 'chunkCount', 'complete', 'droppedFrames', 'duplicatesSkipped', 'durationMs', 'endedAt', 'format', 'frameCount', 'id', 'mp4Error',
  'mp4ReadyAt', 'mp4SizeBytes', 'mp4Status', 'pageCount', 'profileId', 'providerId', 'routerInstanceId', 'sessionLogId', 'sizeBytes', 'startedAt', 'title', 'truncated',
];

const as = (user: TestUser, workspaceId?: string) => ({ auth: { token: user.token }, ...(workspaceId ? { headers: { 'x-workspace-id': workspaceId } } : {}) });

function ffmpeg(args: string[]): Buffer {
  return execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', ...args], { maxBuffer: 64 * 1024 * 1024 });
}

const jpeg = (size: string, at: number) => ffmpeg(['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=10`, '-ss', String(at), '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'mjpeg', '-']);
const FRAMES = { a0: jpeg('64x48', 0), a1: jpeg('64x48', 0.5), b0: jpeg('32x24', 0.2) };
/** A real H.264 MP4 as the encoder makes them (faststart needs a file to seek in), large enough for ranges anywhere in it. */
function makeMp4(): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rec-mp4-'));
  try {
    const file = path.join(dir, 'video.mp4');
    ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10', '-t', '2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', file]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const MP4 = makeMp4();

const prefixed = (frame: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(frame.length);
  return Buffer.concat([length, frame]);
};
const CHUNKS = [Buffer.concat([prefixed(FRAMES.a0), prefixed(FRAMES.a1)]), prefixed(FRAMES.b0)];
const OFFSETS = { a0: 4, a1: 4 + FRAMES.a0.length + 4, b0: 4 };

/** Two tabs: A with two frames in chunk 0, then B (opened blank, navigated) with one frame in chunk 1, closed. */
const MANIFEST: ManifestLine[] = [
  { k: 't', t: 0, target: 'TARGET-A', event: 'opened', url: 'https://a.example.test/', title: 'Page A' },
  { k: 'f', i: 0, t: 120, target: 'TARGET-A', chunk: 0, offset: OFFSETS.a0, length: FRAMES.a0.length, w: 64, h: 48 },
  { k: 'f', i: 1, t: 560, target: 'TARGET-A', chunk: 0, offset: OFFSETS.a1, length: FRAMES.a1.length, w: 64, h: 48 },
  { k: 't', t: 700, target: 'TARGET-B', event: 'opened', url: 'about:blank', title: '' },
  { k: 't', t: 750, target: 'TARGET-B', event: 'changed', url: 'https://b.example.test/x', title: 'Page B' },
  { k: 'f', i: 2, t: 900, target: 'TARGET-B', chunk: 1, offset: OFFSETS.b0, length: FRAMES.b0.length, w: 32, h: 24 },
  { k: 't', t: 1_500, target: 'TARGET-B', event: 'closed' },
];
const FRAME_BYTES = CHUNKS[0]!.length + CHUNKS[1]!.length;

interface FixtureOptions {
  /** `ended` (default): five minutes ago; `just-ended`: a second ago (the capture may still be finishing); `active`: still running. */
  session?: 'active' | 'ended' | 'just-ended';
  complete?: boolean;
  startedAt?: Date;
  routerId?: string;
  mp4Status?: 'queued' | 'running' | 'ready' | 'failed' | null;
  /** Write video.mp4 (with mp4Status `ready`). */
  video?: boolean;
  /** Write no blobs at all (a row the capture never wrote anything for). */
  noBlobs?: boolean;
}

interface Fixture {
  id: string;
  sessionId: string;
  startedAt: Date;
}

async function recordingFixture(user: TestUser, options: FixtureOptions = {}): Promise<Fixture> {
  const state = options.session ?? 'ended';
  const complete = options.complete ?? state !== 'active';
  const startedAt = options.startedAt ?? new Date(Date.now() - 10 * 60_000);
  // An ended session lasted 3 s (a short video when the stack's worker encodes it), long enough ago to be past the capture's grace.
  const endedAt = state === 'active' ? null : state === 'just-ended' ? new Date(Date.now() - 1_000) : new Date(startedAt.getTime() + 3_000);
  const routerId = options.routerId ?? user.routerId;
  const session = await seedSession(user.workspaceId, routerId, {
    providerSlug: 'fixture', providerName: 'Fixture', state: state === 'active' ? 'active' : 'closed',
    startedAt, endedAt, durationMs: endedAt ? endedAt.getTime() - startedAt.getTime() : 0,
  });
  const mp4Status = options.video ? 'ready' : (options.mp4Status ?? null);
  const recording = await seedRecording(session, {
    endedAt: complete ? endedAt : null, durationMs: complete ? 1_500 : 0,
    frameCount: complete ? 3 : 0, chunkCount: complete ? 2 : 0, sizeBytes: BigInt(complete ? FRAME_BYTES : 0),
    duplicatesSkipped: complete ? 4 : 0, complete, mp4Status,
    // As the capture names it from the manifest's tabs below: Page A's title, two pages.
    title: complete ? 'Page A' : null, pageCount: complete ? 2 : 0,
    mp4SizeBytes: BigInt(options.video ? MP4.length : 0), mp4ReadyAt: options.video ? new Date() : null,
  });
  if (!options.noBlobs) {
    await blobs().put(chunkKey(recording.id, 0), CHUNKS[0]!);
    await blobs().put(chunkKey(recording.id, 1), CHUNKS[1]!);
    // A recording being written may end its manifest mid-line.
    await blobs().put(manifestKey(recording.id), MANIFEST.map((l) => JSON.stringify(l)).join('\n') + (complete ? '\n' : '\n{"k":"f","i":3,"t":9'));
    if (complete) await blobs().put(completeKey(recording.id), JSON.stringify(summaryOf(recording.id, session.id, startedAt, endedAt!)));
    if (options.video) await blobs().put(videoKey(recording.id), MP4);
  }
  return { id: recording.id, sessionId: session.id, startedAt };
}

function summaryOf(recordingId: string, sessionId: string, startedAt: Date, endedAt: Date): CompleteSummary {
  return {
    recordingId, sessionId, startedAt: startedAt.toISOString(), endedAt: endedAt.toISOString(),
    durationMs: 1_500, sessionDurationMs: endedAt.getTime() - startedAt.getTime(),
    frameCount: 3, chunkCount: 2, sizeBytes: FRAME_BYTES, droppedFrames: 0, duplicatesSkipped: 4, capStopped: false, truncated: null,
    targets: [
      { targetId: 'TARGET-A', url: 'https://a.example.test/', title: 'Page A', frameCount: 2 },
      { targetId: 'TARGET-B', url: 'https://b.example.test/x', title: 'Page B', frameCount: 1 },
    ],
    title: 'Page A', pageCount: 2,
  };
}

async function mp4StatusOf(id: string) {
  return (await db.recording.findUniqueOrThrow({ where: { id }, select: { mp4Status: true } })).mp4Status;
}

/** A GET of bytes: status, headers and the body as a Buffer (the API's call() parses text). */
async function getBytes(url: string, user: TestUser, headers: Record<string, string> = {}, method = 'GET') {
  const response = await fetch(`${WEB}${url}`, { method, headers: { authorization: `Bearer ${user.token}`, ...headers } });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

test('the list: the Recording resource, newest first, last 30 days, filters by session and router, limit', async () => {
  const user = await newUser('rec-list');
  const older = await recordingFixture(user, { startedAt: new Date(Date.now() - 3 * DAY_MS) });
  const newer = await recordingFixture(user, { startedAt: new Date(Date.now() - 60_000), video: true });
  const live = await recordingFixture(user, { session: 'active', startedAt: new Date(Date.now() - 30_000) });
  await recordingFixture(user, { startedAt: new Date(Date.now() - 31 * DAY_MS) }); // beyond the window
  const router2 = (await seedRouter(user.workspaceId, { slug: 'second', name: 'Second' })).id;
  const onRouter2 = await recordingFixture(user, { routerId: router2, startedAt: new Date(Date.now() - 2 * DAY_MS) });

  const list = expectOk(await call('GET', '/v1/replays', as(user)));
  assert.deepEqual(Object.keys(list).sort(), ['count', 'replays']);
  assert.deepEqual(list.replays.map((r: any) => r.id), [live.id, newer.id, onRouter2.id, older.id], 'newest first, nothing older than 30 days');
  assert.equal(list.count, 4);

  const ready = list.replays[1];
  assert.deepEqual(Object.keys(ready).sort(), recordingFields);
  assert.deepEqual(ready, {
    id: newer.id, sessionLogId: newer.sessionId, routerInstanceId: user.routerId, providerId: null, profileId: null,
    startedAt: newer.startedAt.toISOString(), endedAt: ready.endedAt, durationMs: 1_500, frameCount: 3, chunkCount: 2, sizeBytes: FRAME_BYTES,
    droppedFrames: 0, duplicatesSkipped: 4, format: 'jpeg', complete: true, capStopped: false, truncated: null,
    mp4Status: 'ready', mp4SizeBytes: MP4.length, mp4ReadyAt: ready.mp4ReadyAt, mp4Error: null, title: 'Page A', pageCount: 2,
  });
  assert.match(ready.endedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.match(ready.mp4ReadyAt, /Z$/);
  const running = list.replays[0];
  assert.deepEqual([running.complete, running.endedAt, running.mp4Status, running.mp4ReadyAt], [false, null, null, null]);

  const bySession = expectOk(await call('GET', `/v1/replays?session_id=${older.sessionId}`, as(user)));
  assert.deepEqual([bySession.count, bySession.replays.map((r: any) => r.id)], [1, [older.id]]);
  const byRouter = expectOk(await call('GET', `/v1/replays?routerInstanceId=${router2}`, as(user)));
  assert.deepEqual(byRouter.replays.map((r: any) => r.id), [onRouter2.id]);
  const byDefaultRouter = expectOk(await call('GET', `/v1/replays?routerInstanceId=${user.routerId}`, as(user)));
  assert.deepEqual(byDefaultRouter.replays.map((r: any) => r.id), [live.id, newer.id, older.id]);
  const unknown = expectOk(await call('GET', '/v1/replays?session_id=nope', as(user)));
  assert.deepEqual(unknown, { count: 0, replays: [] });

  const limited = expectOk(await call('GET', '/v1/replays?limit=2', as(user)));
  assert.deepEqual([limited.count, limited.replays.map((r: any) => r.id)], [2, [live.id, newer.id]]);
  assert.equal(expectOk(await call('GET', '/v1/replays?limit=200', as(user))).count, 4);
  for (const bad of ['0', '201', '-1', '1.5', 'ten']) {
    const res = await call('GET', `/v1/replays?limit=${bad}`, as(user));
    expectError(res, 400, 'validation_error');
    assert.equal(res.body.error.details[0].path, 'limit');
  }

  // Counted against the daily bearer cap, like the rest of the replays group.
  const counted = await call('GET', '/v1/replays', as(user));
  assert.ok(counted.headers.get('x-ratelimit-limit'));
  assert.ok(counted.headers.get('x-ratelimit-remaining'));
});

test('one recording: `orphaned` is true only when it is unfinished and its session ended', async () => {
  const user = await newUser('rec-one');
  const complete = await recordingFixture(user);
  const live = await recordingFixture(user, { session: 'active' });
  const finishing = await recordingFixture(user, { session: 'just-ended', complete: false });
  const orphan = await recordingFixture(user, { session: 'ended', complete: false });

  const one = expectOk(await call('GET', `/v1/replays/${complete.id}`, as(user)));
  assert.deepEqual(Object.keys(one).sort(), [...recordingFields, 'orphaned'].sort());
  const listed = expectOk(await call('GET', `/v1/replays?session_id=${complete.sessionId}`, as(user))).replays[0];
  assert.deepEqual(one, { ...listed, orphaned: false });
  assert.equal(expectOk(await call('GET', `/v1/replays/${live.id}`, as(user))).orphaned, false);
  assert.equal(expectOk(await call('GET', `/v1/replays/${finishing.id}`, as(user))).orphaned, false, 'a session that just ended: the capture may still be finishing');
  const orphaned = expectOk(await call('GET', `/v1/replays/${orphan.id}`, as(user)));
  assert.deepEqual([orphaned.orphaned, orphaned.complete], [true, false]);
  expectError(await call('GET', '/v1/replays/does-not-exist', as(user)), 404, 'not_found');
});

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
  assert.ok(['queued', 'running'].includes(again.mp4Status) || again.alreadyReady === true, `a second export reports the one under way: ${JSON.stringify(again)}`);
  const jobs = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${jobsSchema()}.job WHERE name = $1 AND data->>'recordingId' = $2`, ENCODE_QUEUE, finished.id);
  assert.equal(jobs[0]!.n, 1, 'one encode job for the recording, however often it is asked');

  // The stack's proxy runs the encoder: the video becomes ready and downloads as an MP4.
  const encoded = await eventually(async () => {
    const r = expectOk(await call('GET', `/v1/replays/${finished.id}`, as(user)));
    return r.mp4Status === 'ready' || r.mp4Status === 'failed' ? r : null;
  }, 60_000, 'the encode to end');
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
    recordingId: id, sessionId, format: 'jpeg', startedAt: startedAt.toISOString(), complete: true, chunkCount: 2,
    targets: [
      { targetId: 'TARGET-A', url: 'https://a.example.test/', title: 'Page A', openedAt: 0, closedAt: null, frameCount: 2, pages: [{ t: 0, url: 'https://a.example.test/', title: 'Page A' }] },
      // about:blank first: not a page of the tab's.
      { targetId: 'TARGET-B', url: 'https://b.example.test/x', title: 'Page B', openedAt: 700, closedAt: 1_500, frameCount: 1, pages: [{ t: 750, url: 'https://b.example.test/x', title: 'Page B' }] },
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
  assert.deepEqual([...framesOfChunk(chunks[0]!)].map((f) => f.length), [FRAMES.a0.length, FRAMES.a1.length]);

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
  assert.deepEqual(manifest.frames.map((f: any) => f.index), [0, 1, 2], 'the half-written last line is left out');
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

test('delete: owner or admin; the row and every blob go; a member is forbidden', async () => {
  const owner = await newUser('rec-del');
  const admin = await newUser('rec-del-a');
  const member = await newUser('rec-del-m');
  await seedMember(owner.workspaceId, admin.userId, 'admin');
  await seedMember(owner.workspaceId, member.userId, 'member');
  const first = await recordingFixture(owner, { video: true });
  const second = await recordingFixture(owner);

  expectError(await call('DELETE', `/v1/replays/${first.id}`, as(member, owner.workspaceId)), 403, 'forbidden');
  assert.ok(await blobs().size(videoKey(first.id)));

  assert.deepEqual(expectOk(await call('DELETE', `/v1/replays/${first.id}`, as(owner))), { id: first.id });
  assert.equal(await db.recording.findUnique({ where: { id: first.id } }), null);
  for (const key of [videoKey(first.id), manifestKey(first.id), completeKey(first.id), chunkKey(first.id, 0), chunkKey(first.id, 1)]) {
    assert.equal(await blobs().size(key), null, `${key} is gone`);
  }
  assert.ok(await db.sessionLog.findUnique({ where: { id: first.sessionId } }), 'the session stays');
  expectError(await call('GET', `/v1/replays/${first.id}`, as(owner)), 404, 'not_found');
  expectError(await call('GET', `/v1/replays/${first.id}/export/download`, as(owner)), 404, 'not_found');
  expectError(await call('DELETE', `/v1/replays/${first.id}`, as(owner)), 404, 'not_found');
  const session = expectOk(await call('GET', `/v1/sessions/${first.sessionId}`, as(owner)));
  assert.equal(session.hasRecording, false);

  assert.deepEqual(expectOk(await call('DELETE', `/v1/replays/${second.id}`, as(admin, owner.workspaceId))), { id: second.id });
  assert.equal(await blobs().size(chunkKey(second.id, 0)), null);
});

test('another workspace\'s recording is not_found on every endpoint; a member reads; no token is 401', async () => {
  const owner = await newUser('rec-iso');
  const stranger = await newUser('rec-iso-x');
  const member = await newUser('rec-iso-m');
  await seedMember(owner.workspaceId, member.userId, 'member');
  const { id, sessionId } = await recordingFixture(owner, { video: true });
  await recordingFixture(stranger); // the stranger's own list is not empty either

  const endpoints: [string, string][] = [
    ['GET', `/v1/replays/${id}`],
    ['POST', `/v1/replays/${id}/export`],
    ['GET', `/v1/replays/${id}/export/download`],
    ['GET', `/v1/replays/${id}/manifest`],
    ['GET', `/v1/replays/${id}/chunks/0`],
    ['GET', `/v1/replays/${id}/complete`],
    ['DELETE', `/v1/replays/${id}`],
  ];
  for (const [method, url] of endpoints) expectError(await call(method, url, as(stranger)), 404, 'not_found');
  const theirs = expectOk(await call('GET', `/v1/replays?session_id=${sessionId}`, as(stranger)));
  assert.deepEqual(theirs, { count: 0, replays: [] });
  assert.ok(expectOk(await call('GET', '/v1/replays', as(stranger))).replays.every((r: any) => r.id !== id));
  // Naming the owner's workspace does not help someone outside it.
  expectError(await call('GET', `/v1/replays/${id}`, as(stranger, owner.workspaceId)), 403, 'not_a_member');

  // A member of the workspace reads everything (only delete needs owner or admin).
  for (const [method, url] of endpoints.filter(([m]) => m === 'GET')) {
    const res = await getBytes(url, member, { 'x-workspace-id': owner.workspaceId }, method);
    assert.equal(res.status, 200, `${method} ${url}`);
  }

  for (const [method, url] of [...endpoints, ['GET', '/v1/replays'] as [string, string]]) {
    expectError(await call(method, url), 401, 'unauthenticated');
    expectError(await call(method, url, { auth: { token: 'acct_not-a-real-token' } }), 401, 'unauthenticated');
  }
  assert.ok(await db.recording.findUnique({ where: { id } }), 'nothing was deleted');
});
