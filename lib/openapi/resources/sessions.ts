// Answers about sessions, recordings and their frames (docs/api.md, Sessions; Recordings).
import { z } from 'zod';
import { count, ex, list, named, timestamp } from './common';

const sessionExample = {
  id: ex.sessionId,
  state: 'closed' as const,
  kind: 'route' as const,
  startedAt: ex.at,
  endedAt: ex.later,
  durationMs: 162_512,
  bytesIn: 48_211,
  bytesOut: 1_204_933,
  totalBytes: 1_253_144,
  messageCount: 412,
  billedCents: 0,
  billedMillicents: 0,
  errorReason: null,
  provider: { id: ex.providerId, slug: 'local-chrome', name: 'Local Chrome' },
  hasRecording: false,
  hasReplay: false,
  profileId: null,
};
const recordingExample = {
  id: ex.recordingId,
  sessionLogId: ex.sessionId,
  routerInstanceId: ex.routerId,
  providerId: ex.providerId,
  profileId: null,
  startedAt: ex.at,
  endedAt: ex.later,
  durationMs: 162_000,
  frameCount: 1_204,
  chunkCount: 3,
  sizeBytes: 9_512_334,
  droppedFrames: 0,
  duplicatesSkipped: 88,
  format: 'jpeg',
  complete: true,
  capStopped: false,
  truncated: null,
  mp4Status: 'ready' as const,
  mp4SizeBytes: 3_204_112,
  mp4ReadyAt: '2026-11-24T10:18:05.120Z',
  mp4Error: null,
  title: 'Checkout · Example Shop',
  pageCount: 4,
};

export const session = named(
  'Session',
  z.object({
    id: z.string(),
    state: z.enum(['active', 'closed', 'errored']),
    kind: z.enum(['route', 'agent']),
    startedAt: timestamp,
    endedAt: timestamp.nullable(),
    durationMs: z.int().describe('so far, while active'),
    bytesIn: count,
    bytesOut: count,
    totalBytes: count,
    messageCount: count,
    billedCents: z.int().describe('whole cents, rounded half away from zero'),
    billedMillicents: z.int(),
    errorReason: z.string().nullable(),
    provider: z.object({ id: z.string().nullable(), slug: z.string(), name: z.string() }),
    hasRecording: z.boolean(),
    hasReplay: z.boolean().describe('the session has a trace'),
    profileId: z.string().nullable().describe('the profile the session used, if any'),
  }),
  { example: sessionExample },
);

/** The contract names hasReplay on the single session; the list items carry it too. */
export const sessionDetail = named('SessionDetail', session, { example: sessionExample });

export const sessionClosed = z.union([
  z.object({ id: z.string(), state: z.literal('closed'), closedAt: timestamp }),
  z.object({ id: z.string(), state: z.enum(['active', 'closed', 'errored']), closedAt: timestamp.nullable(), alreadyClosed: z.literal(true) }),
]);

export const sessionDownload = named(
  'SessionDownload',
  z.object({
    id: z.string(),
    name: z.string().describe('the name the browser saved it under'),
    sizeBytes: count,
    createdAt: timestamp.describe("when it was stored, at the session's end (kept by the provider: when it completed)"),
    url: z.string().nullable().describe("the path of the file, `/v1/sessions/<id>/downloads/<download id>`; null when the provider's browser keeps the file"),
    keptBy: z
      .enum(['service', 'provider'])
      .describe("`service`: the file is stored here (the local pool); `provider`: the provider's browser kept it, listed from the session's trace"),
    sourceUrl: z.string().nullable().describe('where it was downloaded from (redacted as in traces), when known'),
  }),
  {
    example: {
      id: '5b0f8a4e-2c1d-4e8a-9f3b-7d6c5a4b3e21',
      name: 'invoice-2026-11.pdf',
      sizeBytes: 48_211,
      createdAt: ex.later,
      url: `/v1/sessions/${ex.sessionId}/downloads/5b0f8a4e-2c1d-4e8a-9f3b-7d6c5a4b3e21`,
      keptBy: 'service',
      sourceUrl: null,
    },
  },
);

export const sessionDownloadList = list(sessionDownload);

export const recording = named(
  'Recording',
  z.object({
    id: z.string(),
    sessionLogId: z.string(),
    routerInstanceId: z.string(),
    providerId: z.string().nullable(),
    profileId: z.string().nullable(),
    startedAt: timestamp,
    endedAt: timestamp.nullable().describe('null while it is written'),
    durationMs: z.int(),
    frameCount: count,
    chunkCount: count,
    sizeBytes: count,
    droppedFrames: count,
    duplicatesSkipped: count,
    format: z.string().describe('`jpeg`'),
    complete: z.boolean(),
    capStopped: z.boolean(),
    truncated: z.enum(['byte-cap', 'wallet-drained']).nullable(),
    mp4Status: z.enum(['queued', 'running', 'ready', 'failed']).nullable().describe('null while no encode was ever asked for'),
    mp4SizeBytes: count,
    mp4ReadyAt: timestamp.nullable(),
    mp4Error: z.string().nullable(),
    title: z.string().nullable().describe('the first title its tabs showed; null until it ends, or when no page had one'),
    pageCount: count.describe('the pages it visited: distinct addresses across its tabs (blank and browser pages aside)'),
  }),
  { example: recordingExample },
);

export const recordingDetail = named(
  'RecordingDetail',
  recording.extend({ orphaned: z.boolean().describe('not complete, and its session ended more than 30 seconds ago') }),
  {
    example: { ...recordingExample, orphaned: false },
  },
);

export const recordingList = z.object({ count, replays: z.array(recording) });

export const exportAnswer = z.union([
  z.object({ mp4Status: z.enum(['queued', 'running']) }),
  z.object({ alreadyReady: z.literal(true), mp4Status: z.literal('ready') }),
]);

const targetSummary = z.object({ targetId: z.string(), url: z.string(), title: z.string(), frameCount: count });

export const manifest = z.object({
  recordingId: z.string(),
  sessionId: z.string(),
  format: z.string(),
  startedAt: timestamp,
  complete: z.boolean(),
  chunkCount: count,
  targets: z.array(
    targetSummary.extend({
      openedAt: z.int().describe('ms since the recording started'),
      closedAt: z.int().nullable(),
      pages: z
        .array(z.object({ t: z.int().describe('ms since the recording started'), url: z.string(), title: z.string().describe('empty until the page had one') }))
        .describe(
          'the pages the tab showed, in order (a new one when its address changes, the #fragment aside; blank and browser pages left out; the first 100)',
        ),
    }),
  ),
  frames: z.array(
    z.object({
      index: count,
      t: z.int().describe('ms since the recording started'),
      targetId: z.string(),
      chunk: count,
      offset: count,
      length: count,
      width: z.int(),
      height: z.int(),
    }),
  ),
});

export const completeSummary = z.object({
  recordingId: z.string(),
  sessionId: z.string(),
  startedAt: timestamp,
  endedAt: timestamp,
  durationMs: z.int().describe('frames captured: the billed time'),
  sessionDurationMs: z.int().describe('the whole session, which the video covers'),
  frameCount: count,
  chunkCount: count,
  sizeBytes: count,
  droppedFrames: count,
  duplicatesSkipped: count,
  capStopped: z.boolean(),
  truncated: z.enum(['byte-cap', 'wallet-drained']).nullable(),
  targets: z.array(targetSummary),
  title: z.string().nullable().optional().describe('the first title its tabs showed (absent from recordings made before it was kept)'),
  pageCount: count.optional().describe('the pages it visited (absent as `title`)'),
  complete: z.boolean().describe('false for an orphaned recording, summarised from its manifest'),
});
