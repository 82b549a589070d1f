// Recordings (docs/api.md, Recordings): the list and its filters, one recording and `orphaned`,
// delete, roles, other workspaces and credentials. The files of a recording (export, MP4, manifest,
// chunks, summary) are in recordings-files.test.ts; both use e2e/support/recording-fixture.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blobs } from '../../lib/blobs';
import { db } from '../../lib/db';
import { chunkKey, completeKey, manifestKey, videoKey } from '../../lib/recordings/format';
import { call, expectError, expectOk, newUser } from '../support/api';
import { as, FRAME_BYTES, getBytes, MP4, recordingFixture } from '../support/recording-fixture';
import { seedMember, seedRouter } from '../support/seed';

const DAY_MS = 86_400_000;
const recordingFields = [
  'capStopped',
  'chunkCount',
  'complete',
  'droppedFrames',
  'duplicatesSkipped',
  'durationMs',
  'endedAt',
  'format',
  'frameCount',
  'id',
  'mp4Error',
  'mp4ReadyAt',
  'mp4SizeBytes',
  'mp4Status',
  'pageCount',
  'profileId',
  'providerId',
  'routerInstanceId',
  'sessionLogId',
  'sizeBytes',
  'startedAt',
  'title',
  'truncated',
];

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
  assert.deepEqual(
    list.replays.map((r: any) => r.id),
    [live.id, newer.id, onRouter2.id, older.id],
    'newest first, nothing older than 30 days',
  );
  assert.equal(list.count, 4);

  const ready = list.replays[1];
  assert.deepEqual(Object.keys(ready).sort(), recordingFields);
  assert.deepEqual(ready, {
    id: newer.id,
    sessionLogId: newer.sessionId,
    routerInstanceId: user.routerId,
    providerId: null,
    profileId: null,
    startedAt: newer.startedAt.toISOString(),
    endedAt: ready.endedAt,
    durationMs: 1_500,
    frameCount: 3,
    chunkCount: 2,
    sizeBytes: FRAME_BYTES,
    droppedFrames: 0,
    duplicatesSkipped: 4,
    format: 'jpeg',
    complete: true,
    capStopped: false,
    truncated: null,
    mp4Status: 'ready',
    mp4SizeBytes: MP4.length,
    mp4ReadyAt: ready.mp4ReadyAt,
    mp4Error: null,
    title: 'Page A',
    pageCount: 2,
  });
  assert.match(ready.endedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.match(ready.mp4ReadyAt, /Z$/);
  const running = list.replays[0];
  assert.deepEqual([running.complete, running.endedAt, running.mp4Status, running.mp4ReadyAt], [false, null, null, null]);

  const bySession = expectOk(await call('GET', `/v1/replays?session_id=${older.sessionId}`, as(user)));
  assert.deepEqual([bySession.count, bySession.replays.map((r: any) => r.id)], [1, [older.id]]);
  const byRouter = expectOk(await call('GET', `/v1/replays?routerInstanceId=${router2}`, as(user)));
  assert.deepEqual(
    byRouter.replays.map((r: any) => r.id),
    [onRouter2.id],
  );
  const byDefaultRouter = expectOk(await call('GET', `/v1/replays?routerInstanceId=${user.routerId}`, as(user)));
  assert.deepEqual(
    byDefaultRouter.replays.map((r: any) => r.id),
    [live.id, newer.id, older.id],
  );
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
  assert.equal(
    expectOk(await call('GET', `/v1/replays/${finishing.id}`, as(user))).orphaned,
    false,
    'a session that just ended: the capture may still be finishing',
  );
  const orphaned = expectOk(await call('GET', `/v1/replays/${orphan.id}`, as(user)));
  assert.deepEqual([orphaned.orphaned, orphaned.complete], [true, false]);
  expectError(await call('GET', '/v1/replays/does-not-exist', as(user)), 404, 'not_found');
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

test("another workspace's recording is not_found on every endpoint; a member reads; no token is 401", async () => {
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
