// Answers about traces and their events (docs/api.md, Traces; lib/traces/format.ts is the event format).
import { z } from 'zod';
import { count, ex, named, timestamp, unixMs } from './common';

const traceExample = {
  id: ex.traceId,
  sessionLogId: ex.sessionId,
  routerInstanceId: ex.routerId,
  providerId: ex.providerId,
  startedAt: ex.at,
  endedAt: ex.later,
  durationMs: 162_512,
  eventCount: 2_480,
  sizeBytes: 1_530_112,
  droppedEvents: 0,
  complete: true,
  truncated: null,
  pages: 3,
};

export const trace = named(
  'Trace',
  z.object({
    id: z.string(),
    sessionLogId: z.string(),
    routerInstanceId: z.string(),
    providerId: z.string().nullable(),
    startedAt: timestamp,
    endedAt: timestamp.nullable().describe('null while it is written'),
    durationMs: z.int(),
    eventCount: count,
    sizeBytes: count,
    droppedEvents: count,
    complete: z.boolean(),
    truncated: z.enum(['event-cap', 'wallet-drained']).nullable(),
    pages: count.describe('pages of 1,000 events the events endpoint has'),
  }),
  { example: traceExample },
);

export const traceDetail = named(
  'TraceDetail',
  trace.extend({ orphaned: z.boolean().describe('not complete, and its session ended more than 30 seconds ago') }),
  {
    example: { ...traceExample, orphaned: false },
  },
);

export const traceList = z.object({ count, inspections: z.array(trace) });

const headers = z.record(z.string(), z.string()).describe('credential headers are `[redacted]`');
const base = { seq: count, t: unixMs.describe('when the proxy saw it'), tab: z.string().nullable().describe("the page's target id; null for the browser") };
const place = { url: z.string().optional(), line: z.int().optional(), column: z.int().optional() };

export const traceEvent = named(
  'TraceEvent',
  z.discriminatedUnion('kind', [
    z.object({ ...base, kind: z.literal('tab'), action: z.enum(['opened', 'closed']), url: z.string().optional(), openerId: z.string().optional() }),
    z.object({
      ...base,
      kind: z.literal('request'),
      requestId: z.string(),
      frameId: z.string().optional(),
      url: z.string(),
      method: z.string(),
      type: z.string(),
      headers,
      postDataBytes: count.optional(),
      initiator: z.string().optional(),
      wallTime: z.number(),
      timestamp: z.number(),
      redirectResponse: z.object({ status: z.int(), statusText: z.string(), headers, mimeType: z.string().optional() }).optional(),
    }),
    z.object({
      ...base,
      kind: z.literal('response'),
      requestId: z.string(),
      url: z.string(),
      status: z.int(),
      statusText: z.string(),
      mimeType: z.string(),
      headers,
      requestHeaders: headers.optional(),
      protocol: z.string().optional(),
      remoteAddress: z.string().optional(),
      fromCache: z.boolean(),
      fromServiceWorker: z.boolean(),
      timing: z.record(z.string(), z.number()).optional(),
      encodedDataLength: count,
      type: z.string(),
      timestamp: z.number(),
    }),
    z.object({ ...base, kind: z.literal('finished'), requestId: z.string(), encodedDataLength: count, timestamp: z.number() }),
    z.object({
      ...base,
      kind: z.literal('failed'),
      requestId: z.string(),
      errorText: z.string(),
      canceled: z.boolean(),
      blockedReason: z.string().optional(),
      type: z.string(),
      timestamp: z.number(),
    }),
    z.object({
      ...base,
      kind: z.literal('console'),
      level: z.enum(['debug', 'info', 'log', 'warning', 'error']),
      source: z.string(),
      text: z.string(),
      ...place,
    }),
    z.object({ ...base, kind: z.literal('exception'), text: z.string(), stack: z.string().optional(), ...place }),
    z.object({ ...base, kind: z.literal('navigation'), frameId: z.string(), main: z.boolean(), url: z.string(), sameDocument: z.boolean() }),
    z.object({
      ...base,
      kind: z.literal('note'),
      code: z.literal('not-enabled'),
      missing: z.array(z.enum(['network', 'console', 'navigation'])),
      message: z.string(),
    }),
  ]),
  {
    description: 'One event of a trace (lib/traces/format.ts). Request bodies are never stored (`postDataBytes` gives their size).',
    example: {
      seq: 0,
      t: 1_795_515_300_000,
      tab: 'E3B0C44298FC1C149AFBF4C8996FB924',
      kind: 'navigation',
      frameId: 'E3B0C44298FC1C149AFBF4C8996FB924',
      main: true,
      url: 'https://example.com/',
      sameDocument: false,
    },
  },
);

export const eventsPage = z.object({ events: z.array(traceEvent), page: count, pages: count, eventCount: count });
