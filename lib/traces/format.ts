// How a trace is laid out in blob storage and what one event looks like (docs/traces.md). The
// capture plugin (proxy/plugins/trace/) writes it, the API (GET /v1/inspections/:id/events) and the
// HAR export read it.
//
//   traces/<traceId>/pages/000000.ndjson   events 0..999, one JSON object per line
//   traces/<traceId>/pages/000001.ndjson   events 1000..1999, ...
//   traces/<traceId>/complete.json         the end-of-session summary (written last)
//
// A page file holds exactly PAGE_SIZE events (the last one fewer), so `?page=n` is one file read
// and the whole trace is the page files in order: nothing is indexed or held in memory.

/** Events per page file and per `?page=` of the events endpoint. */
export const PAGE_SIZE = 1_000;
/** Capture stops after this many events; the session goes on (docs/traces.md, Limits). */
export const TRACE_MAX_EVENTS = 2_000_000;

export const traceFolder = (traceId: string) => `traces/${traceId.toLowerCase()}`;
export const pageKey = (traceId: string, page: number) => `${traceFolder(traceId)}/pages/${String(page).padStart(6, '0')}.ndjson`;
export const traceCompleteKey = (traceId: string) => `${traceFolder(traceId)}/complete.json`;

/** How many pages hold `eventCount` events. */
export const pagesOf = (eventCount: number) => Math.ceil(eventCount / PAGE_SIZE);

/** Longer texts (console messages, exception stacks) and URLs (data: URLs) are cut here, with an ellipsis. */
export const TEXT_MAX_CHARS = 4_096;
export const URL_MAX_CHARS = 2_048;

export type Headers = Record<string, string>;

/** Common to every event. */
interface EventBase {
  /** Position in the trace, from 0. */
  seq: number;
  /** When the proxy saw it (Unix ms). */
  t: number;
  /** The tab (CDP target id of the page) it belongs to; null for the browser itself. */
  tab: string | null;
}

/** A page opened or closed (a CDP page target attached to or detached from the client). */
export interface TabEvent extends EventBase {
  kind: 'tab';
  action: 'opened' | 'closed';
  url?: string;
  /** The tab that opened it (a popup). */
  openerId?: string;
}

/** Network.requestWillBeSent. A redirect repeats the requestId with the previous hop's response in `redirectResponse`. */
export interface RequestEvent extends EventBase {
  kind: 'request';
  requestId: string;
  frameId?: string;
  url: string;
  method: string;
  /** CDP resource type: Document, Stylesheet, Image, Script, XHR, Fetch, Font, Media, Other, ... */
  type: string;
  headers: Headers;
  /** Size of the request body; the body itself is never kept (login forms carry passwords). */
  postDataBytes?: number;
  initiator?: string;
  /** The request's start in the browser's clock: wall time (Unix s) and monotonic time (s). */
  wallTime: number;
  timestamp: number;
  redirectResponse?: { status: number; statusText: string; headers: Headers; mimeType?: string };
}

/** CDP ResourceTiming: `requestTime` (monotonic s) and offsets in ms from it (-1: not applicable). */
export type Timing = Record<string, number>;

/** Network.responseReceived. */
export interface ResponseEvent extends EventBase {
  kind: 'response';
  requestId: string;
  url: string;
  status: number;
  statusText: string;
  mimeType: string;
  headers: Headers;
  requestHeaders?: Headers;
  protocol?: string;
  remoteAddress?: string;
  fromCache: boolean;
  fromServiceWorker: boolean;
  timing?: Timing;
  /** Bytes received so far (headers included). */
  encodedDataLength: number;
  type: string;
  timestamp: number;
}

/** Network.loadingFinished. */
export interface FinishedEvent extends EventBase {
  kind: 'finished';
  requestId: string;
  /** Bytes received for the whole response (transfer size). */
  encodedDataLength: number;
  timestamp: number;
}

/** Network.loadingFailed. */
export interface FailedEvent extends EventBase {
  kind: 'failed';
  requestId: string;
  errorText: string;
  canceled: boolean;
  blockedReason?: string;
  type: string;
  timestamp: number;
}

/** Runtime.consoleAPICalled (source `console`) or Log.entryAdded (source: the browser's, e.g. `network`). */
export interface ConsoleEvent extends EventBase {
  kind: 'console';
  level: 'debug' | 'info' | 'log' | 'warning' | 'error';
  /** The console call (`log`, `warn`, `table`, ...) or the Log domain's source (`network`, `security`, ...). */
  source: string;
  text: string;
  url?: string;
  line?: number;
  column?: number;
}

/** Runtime.exceptionThrown: an uncaught exception or an unhandled rejection. */
export interface ExceptionEvent extends EventBase {
  kind: 'exception';
  text: string;
  stack?: string;
  url?: string;
  line?: number;
  column?: number;
}

/** Page.frameNavigated (a new document) or Page.navigatedWithinDocument (history API, #fragment). */
export interface NavigationEvent extends EventBase {
  kind: 'navigation';
  frameId: string;
  /** The tab's top frame, not an iframe. */
  main: boolean;
  url: string;
  sameDocument: boolean;
}

/**
 * A download (Browser.downloadWillBegin, then Browser.downloadProgress once it completed or was
 * canceled; the Page.* forms alike, each download once). Where the provider keeps the file itself,
 * the completed ones are the session's downloads (docs/connect.md, "Downloads").
 */
export interface DownloadEvent extends EventBase {
  kind: 'download';
  /** The browser's id of the download, shared by its events. */
  guid: string;
  state: 'started' | 'completed' | 'canceled';
  /** Where it came from (started). */
  url?: string;
  /** The site's suggested file name (started). */
  name?: string;
  /** Bytes received (completed, canceled). */
  bytes?: number;
}

/** What the trace says about itself: what the capture could not see on a tab. */
export interface NoteEvent extends EventBase {
  kind: 'note';
  code: 'not-enabled';
  /** What the client never enabled on the tab, so the trace has none of it. */
  missing: ('network' | 'console' | 'navigation')[];
  message: string;
}

export type TraceEvent =
  TabEvent | RequestEvent | ResponseEvent | FinishedEvent | FailedEvent | ConsoleEvent | ExceptionEvent | NavigationEvent | DownloadEvent | NoteEvent;
export type TraceEventKind = TraceEvent['kind'];
/** An event as the capture produces it, before it gets its place in the trace. */
export type CapturedEvent = TraceEvent extends infer E ? (E extends TraceEvent ? Omit<E, 'seq'> : never) : never;

/** Why capture stopped before the session ended. */
export type TraceTruncation = 'event-cap' | 'wallet-drained';

/** complete.json. */
export interface TraceSummary {
  traceId: string;
  sessionId: string;
  startedAt: string;
  endedAt: string;
  durationMs: number;
  eventCount: number;
  pages: number;
  sizeBytes: number;
  droppedEvents: number;
  truncated: TraceTruncation | null;
}

/** The lines of a page file, parsed (a torn last line, left by a crash, is skipped). */
export function parsePage(text: string): TraceEvent[] {
  const events: TraceEvent[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      events.push(JSON.parse(line) as TraceEvent);
    } catch {
      // the last line of a page a crashed proxy was writing
    }
  }
  return events;
}

/** A text cut to `max` characters, with an ellipsis when it was longer. */
export function clip(text: string, max = TEXT_MAX_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
