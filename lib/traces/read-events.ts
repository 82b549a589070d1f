// GET /v1/inspections/:id/events: a trace's events, read from its page files (lib/traces/format.ts)
// one page at a time, so no answer holds the whole trace in memory. Without a query every event in
// the envelope, streamed; `page=<n>` one page file; `download=json|gz|har` the whole trace as a
// file. 409 `trace_in_progress` while the capture writes it; a complete or orphaned trace is read
// page by page until a page file is missing (an orphan has what the capture wrote before it died).
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createGzip } from 'node:zlib';
import { ApiError } from '../api/errors';
import { blobs } from '../blobs';
import { PAGE_SIZE, pageKey, pagesOf, parsePage, type TraceEvent } from './format';
import { HarBuilder, harClosing, harOpening } from './har';
import { getTraceRowOrThrow, tracePhase, type TraceRow, type TraceScope } from './read-traces';
import type { EventsQuery } from './schemas';

/** How long a client waits before asking again for a trace still being written. */
export const RETRY_AFTER_S = 10;

export async function readEvents(scope: TraceScope, id: string, query: EventsQuery): Promise<Response | object> {
  const row = await getTraceRowOrThrow(scope, id);
  if (tracePhase(row) === 'recording') {
    throw new ApiError('trace_in_progress', 'the trace is still being written; ask again once its session has ended', { 'Retry-After': String(RETRY_AFTER_S) });
  }
  if (query.page !== undefined) return eventsPage(row, query.page);
  const name = `trace-${row.id.replace(/[^A-Za-z0-9._-]/g, '_')}`;
  switch (query.download) {
    case 'json':
      return file(chunks(jsonArray(row.id)), 'application/json', `${name}.json`);
    case 'gz':
      // A failed read destroys the gzip stream too (and with it the response) rather than leaving it open.
      return file(
        pipeline(chunks(jsonArray(row.id)), createGzip(), () => {}),
        'application/gzip',
        `${name}.json.gz`,
      );
    case 'har':
      return file(chunks(har(row.id)), 'application/json', `${name}.har`);
    default:
      return new Response(toWeb(chunks(envelope(row.id))), { headers: { 'Content-Type': 'application/json' } });
  }
}

/** `?page=n`: one page file's events; a page past the last is empty, not an error. */
async function eventsPage(row: TraceRow, page: number) {
  const { pages, eventCount } = row.complete ? { pages: pagesOf(row.eventCount), eventCount: row.eventCount } : await storedExtent(row.id);
  const events = page < pages ? await readPage(row.id, page) : [];
  return { events, page, pages, eventCount };
}

async function readPage(traceId: string, page: number): Promise<TraceEvent[]> {
  return parsePage((await blobs().get(pageKey(traceId, page)))?.toString('utf8') ?? '');
}

/**
 * What an unfinished trace holds on storage: its page files are 0..n-1 with no gap, found by
 * doubling then halving (a few size checks, however long the trace), and every page but the last
 * is full.
 */
async function storedExtent(traceId: string): Promise<{ pages: number; eventCount: number }> {
  const exists = async (page: number) => (await blobs().size(pageKey(traceId, page))) !== null;
  if (!(await exists(0))) return { pages: 0, eventCount: 0 };
  let present = 0;
  let missing = 1;
  while (await exists(missing)) {
    present = missing;
    missing *= 2;
  }
  while (missing - present > 1) {
    const middle = Math.floor((present + missing) / 2);
    if (await exists(middle)) present = middle;
    else missing = middle;
  }
  const pages = present + 1;
  return { pages, eventCount: present * PAGE_SIZE + (await readPage(traceId, present)).length };
}

/**
 * Each page's events as JSON text, joined by commas, one string per page, in order until a page
 * file is missing. A line is whole when a newline ends it; the last one of a page a crashed proxy
 * was writing may be cut off, and is kept only when it parses.
 */
async function* pageTexts(traceId: string): AsyncGenerator<string> {
  for (let page = 0; ; page++) {
    const text = (await blobs().get(pageKey(traceId, page)))?.toString('utf8');
    if (text === undefined) return;
    const lines = text.split('\n');
    const tail = lines.pop()!;
    const whole = lines.filter((line) => line.length > 0);
    if (tail && parses(tail)) whole.push(tail);
    if (whole.length > 0) yield whole.join(',');
  }
}

function parses(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** The events as one JSON array, page after page. */
async function* jsonArray(traceId: string): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for await (const text of pageTexts(traceId)) {
    yield first ? text : `,${text}`;
    first = false;
  }
  yield ']';
}

/** `{ "ok": true, "data": [ ...events ] }`, the API's envelope around the array. */
async function* envelope(traceId: string): AsyncGenerator<string> {
  yield '{"ok":true,"data":';
  yield* jsonArray(traceId);
  yield '}';
}

/** The HAR document, an entry at a time as requests end (lib/traces/har.ts). */
async function* har(traceId: string): AsyncGenerator<string> {
  const builder = new HarBuilder();
  yield harOpening();
  let first = true;
  const written = (entries: object[]) => {
    if (entries.length === 0) return '';
    const text = entries.map((entry) => JSON.stringify(entry)).join(',');
    const out = first ? text : `,${text}`;
    first = false;
    return out;
  };
  for await (const text of pageTexts(traceId)) {
    const out = (JSON.parse(`[${text}]`) as TraceEvent[]).map((event) => written(builder.add(event))).join('');
    if (out) yield out;
  }
  yield written(builder.finish());
  yield harClosing(builder.pages);
}

/** Text chunks as a byte stream (with backpressure: the next page is read when the client took the last). */
const chunks = (texts: AsyncIterable<string>) =>
  Readable.from(
    (async function* () {
      for await (const text of texts) if (text) yield Buffer.from(text, 'utf8');
    })(),
  );

/** A Node stream as a fetch body (closed with the response, so an aborted download stops reading). */
const toWeb = (stream: Readable) => Readable.toWeb(stream) as NodeReadableStream<Uint8Array> as unknown as ReadableStream<Uint8Array>;

function file(stream: Readable, contentType: string, filename: string): Response {
  return new Response(toWeb(stream), { headers: { 'Content-Type': contentType, 'Content-Disposition': `attachment; filename="${filename}"` } });
}
