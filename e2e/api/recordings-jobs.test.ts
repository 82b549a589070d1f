// The encode job is durable: workers run as processes of their own (e2e/support/job-worker.ts) on
// a private JOBS_SCHEMA, so the stack's proxy never takes these jobs. A worker killed mid-encode
// (SIGKILL, its ffmpeg with it) loses nothing: after the job's expiry another worker retries it
// and the recording's video is made; a worker stopped with SIGTERM hands its job back and the next
// worker retries it at once. The retention sweep, queued by a worker, deletes a 31-day-old
// recording with its files and keeps a 29-day-old one. The workers get the stack's settings, which
// run pg-boss's maintenance and the retry delay short (JOBS_MAINTENANCE_INTERVAL_S, ENCODE_RETRY_DELAY_S).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { newUser, type TestUser } from '../support/api';
import { eventually } from '../support/connect';
import { jpegFrames, probeVideo, writeRecording } from '../support/recording-files';
import { blobs } from '../../lib/blobs';
import { settings } from '../../lib/config/settings';
import { db } from '../../lib/db';
import { enqueueEncode, encodeJobId, ENCODE_QUEUE, getBoss, stopBoss } from '../../lib/jobs';
import { manifestKey, videoKey } from '../../lib/recordings/format';
import { VIDEO_FPS } from '../../lib/recordings/video-timeline';
import { programRunner } from '../../scripts/lib/processes';
import { setEnv } from '../../lib/config/testing';
import { seedRecording, seedSession } from '../support/seed-sessions';

// Read again now: the imports above run before this line.
setEnv({ JOBS_SCHEMA: `jobs_test_${process.pid}` });

const SESSION_MS = 12_000;
/** After a worker dies: the job's expiry (the session's length here), the next maintenance run, then the retry delay. */
const { jobsMaintenanceIntervalS, encodeRetryDelayS } = settings();
const RETRIED_WITHIN_MS = (SESSION_MS / 1000 + jobsMaintenanceIntervalS + encodeRetryDelayS) * 1000;
let user: TestUser;
let frames: Buffer[];
let scratch: string;
before(async () => {
  user = await newUser('recjobs');
  // A minute's worth of changing frames would be slower to make than to need: 12 s at 10 frames/s.
  frames = await jpegFrames(SESSION_MS / 100);
  scratch = await mkdtemp(path.join(os.tmpdir(), 'br-recjobs-'));
});

const workers: ChildProcess[] = [];
after(async () => {
  for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) process.kill(-worker.pid!, 'SIGKILL');
  const boss = await getBoss();
  await boss.getDb().executeSql(`DROP SCHEMA IF EXISTS ${process.env.JOBS_SCHEMA} CASCADE`, []);
  await stopBoss();
  await rm(scratch, { recursive: true, force: true });
});

/** A worker process in a process group of its own (so its ffmpeg can be killed with it); resolves once it takes jobs. */
async function startWorker(...args: string[]): Promise<ChildProcess & { output: () => string }> {
  const child = spawn(process.execPath, [programRunner, 'e2e/support/job-worker.ts', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  workers.push(child);
  let output = '';
  child.stdout!.on('data', (data: Buffer) => (output += data));
  child.stderr!.on('data', (data: Buffer) => (output += data));
  await eventually(() => output.includes('ready') || child.exitCode !== null, 30_000, 'the worker to start');
  assert.equal(child.exitCode, null, `the worker started: ${output}`);
  return Object.assign(child, { output: () => output });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

/** Live processes of a process group, by name (from /proc: pgrp is the fifth field of stat). */
function processesInGroup(pgid: number): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(fields[2]) === pgid && fields[0] !== 'Z' ? [stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))] : [];
      } catch {
        return [];
      }
    });
}

/** A finished recording of SESSION_MS with real frames, its rows, and its blobs where the workers read them. */
async function newRecording(startedAt = new Date(Date.now() - SESSION_MS), options: { files?: boolean } = {}): Promise<string> {
  const endedAt = new Date(startedAt.getTime() + SESSION_MS);
  const session = await seedSession(user.workspaceId, user.routerId, {
    providerSlug: 'pool',
    providerName: 'Pool',
    state: 'closed',
    startedAt,
    durationMs: SESSION_MS,
  });
  const { id } = await seedRecording(session, { endedAt, durationMs: SESSION_MS, frameCount: frames.length, complete: true, mp4Status: 'queued' });
  if (options.files !== false)
    await writeRecording(blobs(), id, { frames: frames.map((jpeg, i) => ({ jpeg, t: 40 + i * 100 })), sessionDurationMs: SESSION_MS, chunkBytes: 1_000_000 });
  return id;
}

const recording = (id: string) => db.recording.findUnique({ where: { id } });
const job = async (recordingId: string) => (await getBoss()).getJobById<{ recordingId: string }>(ENCODE_QUEUE, encodeJobId(recordingId));
/** The job once completed (the worker writes the recording's status just before it completes the job). */
const completed = (recordingId: string) =>
  eventually(
    async () => {
      const j = await job(recordingId);
      return j?.state === 'completed' ? j : null;
    },
    5_000,
    'the job to complete',
  );

async function assertVideo(id: string) {
  const row = (await recording(id))!;
  assert.equal(row.mp4Status, 'ready');
  assert.equal(row.mp4Error, null);
  assert.ok(row.mp4ReadyAt);
  const file = path.join(scratch, `${id}.mp4`);
  await writeFile(file, (await blobs().get(videoKey(id)))!);
  assert.equal(Number(row.mp4SizeBytes), (await blobs().size(videoKey(id)))!);
  const probe = await probeVideo(file);
  assert.equal(probe.codec, 'h264');
  assert.equal(probe.avgFrameRate, `${VIDEO_FPS}/1`);
  assert.ok(Math.abs(probe.durationS * 1000 - SESSION_MS) <= SESSION_MS * 0.05, `${probe.durationS} s`);
}

test(
  'a worker killed mid-encode (and its ffmpeg): the job is retried after its expiry by another worker',
  { timeout: RETRIED_WITHIN_MS + 72_000 },
  async () => {
    const id = await newRecording();
    // The expiry follows the session's length (12 s here); the floor would give short recordings more.
    await enqueueEncode(id, { minExpirySeconds: 1 });
    assert.equal(Number((await job(id))!.expireInSeconds), 12);

    const first = await startWorker();
    await eventually(async () => (await recording(id))?.mp4Status === 'running', 30_000, 'the first worker to start encoding');
    await eventually(() => processesInGroup(first.pid!).includes('ffmpeg'), 10_000, 'its ffmpeg');
    process.kill(-first.pid!, 'SIGKILL');
    await exited(first);
    await eventually(() => processesInGroup(first.pid!).length === 0, 5_000, 'the whole group gone, ffmpeg included');
    const held = (await job(id))!;
    assert.equal(held.state, 'active', 'the job is still held by the dead worker');
    assert.equal((await recording(id))!.mp4Status, 'running');

    const leftovers = () => readdirSync(os.tmpdir()).filter((name) => name.startsWith(`br-encode-${first.pid}-`));
    assert.equal(leftovers().length, 1, 'the killed worker left its scratch directory');
    const second = await startWorker();
    await eventually(() => leftovers().length === 0, 5_000, 'the next worker to clear it');
    // The expiry (from the first start), maintenance and the retry delay, then the encode.
    await eventually(
      async () => (await recording(id))?.mp4Status === 'ready',
      RETRIED_WITHIN_MS + 42_000,
      `the second worker to finish the video (${second.output()})`,
    );
    await assertVideo(id);
    const done = await completed(id);
    assert.equal(done.retryCount, 1, 'one retry: the attempt the killed worker lost');
    second.kill('SIGTERM');
    await exited(second);
  },
);

test('a worker stopped with SIGTERM: ffmpeg stopped, the job handed back and retried at once, long before its expiry', { timeout: 60_000 }, async () => {
  const id = await newRecording();
  await enqueueEncode(id, { minExpirySeconds: 600 });

  const first = await startWorker();
  await eventually(async () => (await recording(id))?.mp4Status === 'running', 30_000, 'the first worker to start encoding');
  await eventually(() => processesInGroup(first.pid!).includes('ffmpeg'), 10_000, 'its ffmpeg');
  const stopped = Date.now();
  first.kill('SIGTERM');
  await exited(first);
  assert.equal(first.exitCode, 0, first.output());
  assert.ok(Date.now() - stopped < 10_000, 'the stop did not wait for the encode');
  assert.deepEqual(processesInGroup(first.pid!), [], 'its ffmpeg was stopped');
  const handedBack = (await job(id))!;
  assert.equal(handedBack.state, 'retry');
  assert.ok(handedBack.startAfter.getTime() <= Date.now() + 1_000, 'due now');
  assert.equal((await recording(id))!.mp4Status, 'queued');

  const retried = Date.now();
  const second = await startWorker();
  await eventually(async () => (await recording(id))?.mp4Status === 'ready', 40_000, `the second worker to finish the video (${second.output()})`);
  assert.ok(Date.now() - retried < 40_000, 'well within the 600 s expiry');
  await assertVideo(id);
  const done = await completed(id);
  assert.equal(done.retryCount, 1, 'the second attempt');
  assert.equal(done.retryLimit, 3, 'the handed-back attempt did not use up a retry');
  second.kill('SIGTERM');
  await exited(second);
});

test('asking twice for one recording queues one job; a recording with nothing captured fails with a reason, not retried', { timeout: 60_000 }, async () => {
  const id = await newRecording(undefined, { files: false });
  const first = await enqueueEncode(id);
  assert.equal(await enqueueEncode(id), first);
  assert.equal(await enqueueEncode('rec_does_not_exist'), null);
  const worker = await startWorker();
  await eventually(async () => (await recording(id))?.mp4Status === 'failed', 30_000, 'the encode to fail');
  assert.equal((await recording(id))!.mp4Error, 'no frames were captured: the pages never painted');
  const done = await completed(id); // an answer, not an attempt to repeat
  assert.equal(done.retryCount, 0);
  worker.kill('SIGTERM');
  await exited(worker);
});

test('retention: a worker sweeps recordings that started over 30 days ago, with their files; younger ones stay', { timeout: 60_000 }, async () => {
  const DAY = 24 * 3600 * 1000;
  const old = await newRecording(new Date(Date.now() - 31 * DAY), { files: false });
  const young = await newRecording(new Date(Date.now() - 29 * DAY), { files: false });
  for (const id of [old, young]) await blobs().put(manifestKey(id), '{}\n');

  const worker = await startWorker('--retention');
  await eventually(async () => (await recording(old)) === null, 30_000, 'the old recording to be swept');
  assert.equal(await blobs().size(manifestKey(old)), null, 'its files are gone');
  assert.ok(await recording(young), 'the 29-day-old recording stays');
  assert.notEqual(await blobs().size(manifestKey(young)), null);
  assert.ok(await db.sessionLog.findFirst({ where: { recording: null, workspaceId: user.workspaceId } }), 'the session itself is history and stays');
  worker.kill('SIGTERM');
  await exited(worker);
});
