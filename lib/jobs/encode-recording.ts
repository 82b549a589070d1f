// The encode job (docs/recordings.md, "Jobs"): one per recording however often it is asked for
// (its id is derived from the recording's), retried twice, given up into a dead-letter queue that
// marks the recording failed when no attempt could say why (its worker kept dying). The job's
// expiry grows with the recording: a worker killed mid-encode loses the job for that long at most.
import { createHash } from 'node:crypto';
import type PgBoss from 'pg-boss';
import { blobs } from '../blobs';
import { settings } from '../config/settings';
import { db } from '../db';
import { log } from '../log';
import { encodeRecording, EncodeError } from '../recordings/encode-video';
import { recordingFolder } from '../recordings/format';
import { videoFailed, videoIsReady, videoQueued, videoReady, videoRunning } from '../recordings/video-status';
import { ensureQueue, getBoss } from './boss';
import { JobTimedOut, WorkerStopping, type JobContext } from './run-queue';

export const ENCODE_QUEUE = 'recording-encode';
/** Where pg-boss puts an encode job after its last failed attempt. */
export const ENCODE_GIVEN_UP_QUEUE = 'recording-encode-given-up';
export const ENCODE_RETRIES = 2;
const MAX_EXPIRY_S = 23 * 3600; // pg-boss refuses 24 h or more

export interface EncodeJobData {
  recordingId: string;
}

/**
 * How long an attempt may hold the job before pg-boss retries it elsewhere: a second per second of
 * session (four times the encoder's target), at least ENCODE_EXPIRY_MIN_S.
 */
export function encodeExpirySeconds(sessionMs: number, minSeconds = settings().encodeExpiryMinS): number {
  return Math.min(MAX_EXPIRY_S, Math.max(Math.ceil(minSeconds), Math.ceil(sessionMs / 1000)));
}

/** The recording's one job id (a UUID, as pg-boss wants): a second send of it is a no-op. */
export function encodeJobId(recordingId: string): string {
  const hex = createHash('sha256').update(`${ENCODE_QUEUE}:${recordingId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function ensureEncodeQueues(boss: PgBoss): Promise<void> {
  await ensureQueue(boss, ENCODE_GIVEN_UP_QUEUE);
  await ensureQueue(boss, ENCODE_QUEUE, { deadLetter: ENCODE_GIVEN_UP_QUEUE });
}

/** Runners in this process that want to hear of a new job at once rather than at their next poll. */
export const encodeWakers = new Set<() => void>();

/**
 * Queues the recording's encode (the capture at the session's end, an export). A job already
 * waiting or running is left as it is; one that failed for good is tried again, one that finished
 * is replaced. Returns the job's id, or null when the recording does not exist.
 */
export async function enqueueEncode(recordingId: string, options: { minExpirySeconds?: number } = {}): Promise<string | null> {
  const row = await db.recording.findUnique({
    where: { id: recordingId },
    select: { durationMs: true, startedAt: true, endedAt: true, session: { select: { durationMs: true } } },
  });
  if (!row) return null;
  const sessionMs = Math.max(row.durationMs, row.session.durationMs, row.endedAt ? row.endedAt.getTime() - row.startedAt.getTime() : 0);
  const boss = await getBoss();
  await ensureEncodeQueues(boss);
  const id = encodeJobId(recordingId);
  const send = () =>
    boss.send(ENCODE_QUEUE, { recordingId } satisfies EncodeJobData, {
      id,
      expireInSeconds: encodeExpirySeconds(sessionMs, options.minExpirySeconds),
      retryLimit: ENCODE_RETRIES,
      retryDelay: settings().encodeRetryDelayS,
    });
  if ((await send()) === null) {
    const existing = await boss.getJobById(ENCODE_QUEUE, id);
    if (existing?.state === 'failed') await boss.retry(ENCODE_QUEUE, id);
    else if (existing?.state === 'completed' || existing?.state === 'cancelled') {
      await boss.deleteJob(ENCODE_QUEUE, id);
      await send();
    } else if (!existing) await send(); // archived meanwhile
  }
  for (const wake of encodeWakers) wake();
  return id;
}

/** The handler of an encode attempt. */
export async function runEncodeJob({ job, signal, lastAttempt }: JobContext<EncodeJobData>): Promise<object> {
  const { recordingId } = job.data;
  const row = await db.recording.findUnique({
    where: { id: recordingId },
    select: { id: true, mp4Status: true, startedAt: true, endedAt: true, session: { select: { durationMs: true } } },
  });
  if (!row) return { skipped: 'the recording was deleted' };
  if (await videoIsReady(row)) return { skipped: 'the video is ready' };
  await videoRunning(row.id);
  const jobLog = log.child({ recordingId, jobId: job.id, attempt: job.retryCount + 1 });
  try {
    const orphanMs = row.session.durationMs || (row.endedAt ? row.endedAt.getTime() - row.startedAt.getTime() : undefined);
    const result = await encodeRecording(blobs(), row.id, { signal, sessionDurationMs: orphanMs });
    const stored = await videoReady(row.id, result.sizeBytes);
    // Deleted while it was encoded: the video would be left behind with no row to find it by.
    if (!stored) await blobs().deleteFolder(recordingFolder(row.id));
    jobLog.info({ sizeBytes: result.sizeBytes, durationMs: result.durationMs, encodedFrames: result.encodedFrames, ...result.timings }, 'recording encoded');
    return { sizeBytes: result.sizeBytes, durationMs: result.durationMs, totalMs: result.timings.totalMs };
  } catch (error) {
    if (signal.reason instanceof WorkerStopping) {
      await videoQueued(row.id);
      throw error;
    }
    const permanent = error instanceof EncodeError && error.permanent;
    if (!(error instanceof EncodeError)) jobLog.error({ err: (error as Error).message }, 'the encode failed');
    await (permanent || lastAttempt ? videoFailed(row.id, mp4ErrorOf(error)) : videoQueued(row.id));
    // Nothing to encode is an answer, not a failure to retry.
    if (permanent) return { failed: mp4ErrorOf(error) };
    throw error;
  }
}

/** The handler of the dead-letter queue: the recording's last attempt ended without a word (its worker died or stopped). */
export async function runEncodeGivenUp({ job }: JobContext<EncodeJobData>): Promise<object> {
  const error = `the encoder stopped before finishing, ${ENCODE_RETRIES + 1} times; export the recording again to retry`;
  await videoFailed(job.data.recordingId, error, { from: ['queued', 'running'] });
  return {};
}

/** What mp4Error says: the encoder's own words, or a generic line (details go to the log, not to users). */
export function mp4ErrorOf(error: unknown): string {
  if (error instanceof EncodeError) return error.message;
  if (error instanceof JobTimedOut) return `the encode was stopped: ${error.message}`;
  return 'the video could not be made (an internal error); export the recording again to retry';
}
