// What the trace viewer shows, made from a trace's events (lib/traces/format.ts): requests joined
// by requestId here, console lines (trace-console.ts) and each tab's navigations (trace-timeline.ts),
// all placed on one time axis. Pure: events in, rows out, no clock and no I/O.
//
// The axis is the proxy's clock (Unix ms): event `t`, the trace's startedAt and a recording's
// startedAt all come from it. A request's start and end come from the browser (`wallTime`, and the
// monotonic `timestamp` of its events), whose clock may differ from the proxy's: the offset between
// the two is estimated from the requests themselves (the smallest gap between a request's wallTime
// and when the proxy saw it) and added to every browser time.
import type { Headers, Timing, TraceEvent } from '../traces/format';

export interface NetworkRequest {
  /** The requestId, with `#n` for the n-th hop after a redirect. */
  key: string;
  requestId: string;
  seq: number;
  tab: string | null;
  url: string;
  method: string;
  /** CDP resource type (Document, XHR, Fetch, Script, ...). */
  type: string;
  /** null: no response (failed before one, or still pending when the trace ended). */
  status: number | null;
  statusText: string;
  mimeType: string | null;
  requestHeaders: Headers;
  responseHeaders: Headers | null;
  protocol?: string;
  remoteAddress?: string;
  fromCache: boolean;
  timing?: Timing;
  postDataBytes?: number;
  initiator?: string;
  /** Bytes over the wire (headers included), when known. */
  transferBytes: number | null;
  error: { text: string; canceled: boolean; blockedReason?: string } | null;
  /** The hop ended in a redirect to this URL. */
  redirectedTo: string | null;
  /** The browser's clock pair of the request: monotonic and wall seconds. */
  timestamp: number;
  wallTime: number;
  /** Monotonic seconds of the end (finished, failed or the redirect), if any. */
  endTimestamp: number | null;
  /** On the axis (proxy clock, Unix ms). `end` null: never finished. */
  start: number;
  end: number | null;
}

/** Milliseconds to add to a browser wall time to place it on the proxy's clock. */
export function clockOffset(events: readonly TraceEvent[]): number {
  let best: number | null = null;
  for (const e of events) {
    if (e.kind !== 'request' || !(e.wallTime > 0)) continue;
    const gap = e.t - e.wallTime * 1000;
    if (best === null || gap < best) best = gap;
  }
  return best ?? 0;
}

/** The browser's monotonic time `timestamp` on the axis, through the request's own clock pair. */
export function monotonicToAxis(r: Pick<NetworkRequest, 'timestamp' | 'wallTime'>, timestamp: number, offset: number): number | null {
  if (!(r.wallTime > 0) || !(r.timestamp > 0) || !(timestamp > 0)) return null;
  return (r.wallTime + (timestamp - r.timestamp)) * 1000 + offset;
}

/** Every request of the trace, one row per hop, in the order they started. */
export function buildRequests(events: readonly TraceEvent[], offset = clockOffset(events)): NetworkRequest[] {
  const rows = new RequestRows(offset);
  for (const e of events) rows.add(e);
  return rows.sorted();
}

type EventOf<K extends TraceEvent['kind']> = Extract<TraceEvent, { kind: K }>;
type RowStart = { requestId: string; seq: number; t: number; tab: string | null };

/** The rows being built: the current hop of each request id, and every hop made so far. */
class RequestRows {
  private readonly rows: NetworkRequest[] = [];
  private readonly current = new Map<string, { row: NetworkRequest; hops: number }>();

  constructor(private readonly offset: number) {}

  add(e: TraceEvent): void {
    if (e.kind === 'request') this.request(e);
    else if (e.kind === 'response') this.response(e);
    else if (e.kind === 'finished') {
      const row = this.rowOf(e);
      row.transferBytes = e.encodedDataLength;
      this.endAt(row, e.timestamp, e.t);
    } else if (e.kind === 'failed') {
      const row = this.rowOf(e);
      row.error = { text: e.errorText, canceled: e.canceled, ...(e.blockedReason && { blockedReason: e.blockedReason }) };
      if (e.type) row.type = e.type;
      this.endAt(row, e.timestamp, e.t);
    }
  }

  sorted(): NetworkRequest[] {
    return this.rows.sort((a, b) => a.start - b.start || a.seq - b.seq);
  }

  private request(e: EventOf<'request'>): void {
    const before = this.current.get(e.requestId);
    if (before) {
      // A redirect: the previous hop ends with the response it got.
      const hop = before.row;
      if (e.redirectResponse) {
        hop.status = e.redirectResponse.status;
        hop.statusText = e.redirectResponse.statusText;
        hop.responseHeaders = e.redirectResponse.headers;
        hop.mimeType = e.redirectResponse.mimeType ?? hop.mimeType;
      }
      hop.redirectedTo = e.url;
      if (hop.end === null) this.endAt(hop, e.timestamp, e.t);
    }
    const row = this.open(e, e.url, before ? before.hops + 1 : 0);
    Object.assign(row, {
      method: e.method,
      type: e.type,
      requestHeaders: e.headers,
      postDataBytes: e.postDataBytes,
      initiator: e.initiator,
      timestamp: e.timestamp,
      wallTime: e.wallTime,
      start: e.wallTime > 0 ? e.wallTime * 1000 + this.offset : e.t,
    });
  }

  private response(e: EventOf<'response'>): void {
    const row = this.rowOf(e, e.url);
    Object.assign(row, {
      status: e.status,
      statusText: e.statusText,
      mimeType: e.mimeType,
      responseHeaders: e.headers,
      protocol: e.protocol,
      remoteAddress: e.remoteAddress,
      fromCache: e.fromCache,
      timing: e.timing,
      transferBytes: e.encodedDataLength,
      type: e.type || row.type,
    } satisfies Partial<NetworkRequest>);
    if (e.requestHeaders && Object.keys(e.requestHeaders).length > 0) row.requestHeaders = mergeHeaders(row.requestHeaders, e.requestHeaders);
  }

  private endAt(row: NetworkRequest, timestamp: number, t: number): void {
    row.endTimestamp = timestamp > 0 ? timestamp : null;
    row.end = monotonicToAxis(row, timestamp, this.offset) ?? t;
  }

  private open(e: RowStart, url: string, hops: number): NetworkRequest {
    const row: NetworkRequest = {
      key: hops === 0 ? e.requestId : `${e.requestId}#${hops}`,
      requestId: e.requestId,
      seq: e.seq,
      tab: e.tab,
      url,
      method: 'GET',
      type: 'Other',
      status: null,
      statusText: '',
      mimeType: null,
      requestHeaders: {},
      responseHeaders: null,
      fromCache: false,
      transferBytes: null,
      error: null,
      redirectedTo: null,
      timestamp: 0,
      wallTime: 0,
      endTimestamp: null,
      start: e.t,
      end: null,
    };
    this.rows.push(row);
    this.current.set(e.requestId, { row, hops });
    return row;
  }

  /** The request's current hop; an event of a request whose start the trace did not hold opens one. */
  private rowOf(e: RowStart, url = ''): NetworkRequest {
    return this.current.get(e.requestId)?.row ?? this.open(e, url, 0);
  }
}

/** The headers the network stack sent (the response's `requestHeaders`) over the page's own, names without case. */
function mergeHeaders(page: Headers, sent: Headers): Headers {
  const out: Headers = { ...sent };
  const names = new Set(Object.keys(sent).map((n) => n.toLowerCase()));
  for (const [name, value] of Object.entries(page)) if (!names.has(name.toLowerCase())) out[name] = value;
  return out;
}

export const isFailedRequest = (r: Pick<NetworkRequest, 'status' | 'error'>) => r.error !== null || (r.status ?? 0) >= 400;

export const TYPE_FILTERS = ['all', 'document', 'fetch', 'script', 'stylesheet', 'image', 'other'] as const;
export type TypeFilter = (typeof TYPE_FILTERS)[number];
export const TYPE_FILTER_LABELS: Record<TypeFilter, string> = {
  all: 'All',
  document: 'Document',
  fetch: 'XHR/Fetch',
  script: 'Script',
  stylesheet: 'Stylesheet',
  image: 'Image',
  other: 'Other',
};

export function typeCategory(type: string): Exclude<TypeFilter, 'all'> {
  switch (type) {
    case 'Document':
      return 'document';
    case 'XHR':
    case 'Fetch':
    case 'EventSource':
      return 'fetch';
    case 'Script':
      return 'script';
    case 'Stylesheet':
      return 'stylesheet';
    case 'Image':
      return 'image';
    default:
      return 'other';
  }
}

export interface RequestFilter {
  type: TypeFilter;
  failedOnly: boolean;
  /** Text found anywhere in the URL, any case. */
  search: string;
}

export function filterRequests(requests: readonly NetworkRequest[], { type, failedOnly, search }: RequestFilter): NetworkRequest[] {
  const text = search.trim().toLowerCase();
  return requests.filter(
    (r) => (type === 'all' || typeCategory(r.type) === type) && (!failedOnly || isFailedRequest(r)) && (!text || r.url.toLowerCase().includes(text)),
  );
}

/** A URL as the waterfall shows it: the path (with query) to read, the origin muted beside it. */
export function splitUrl(url: string): { origin: string; path: string } {
  try {
    const parsed = new URL(url);
    if (parsed.origin === 'null') return { origin: `${parsed.protocol}`, path: url.slice(parsed.protocol.length) };
    return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}${parsed.hash}` };
  } catch {
    return { origin: '', path: url };
  }
}

export interface TimingPhase {
  name: string;
  ms: number;
}

/** Where a request's time went, from CDP's ResourceTiming (offsets in ms from `requestTime`; -1: did not happen). */
export function timingPhases(r: Pick<NetworkRequest, 'timing' | 'timestamp' | 'endTimestamp'>): TimingPhase[] {
  const t = r.timing;
  if (!t || !(t.requestTime! > 0)) return [];
  const at = (name: string) => (typeof t[name] === 'number' && t[name]! >= 0 ? t[name]! : null);
  const span = (from: number | null, to: number | null) => (from !== null && to !== null && to >= from ? to - from : null);
  const firstStep = [at('dnsStart'), at('connectStart'), at('sendStart')].find((v) => v !== null) ?? null;
  const queued = r.timestamp > 0 && firstStep !== null ? (t.requestTime! - r.timestamp) * 1000 + firstStep : null;
  const headersEnd = at('receiveHeadersEnd');
  const download = r.endTimestamp !== null && headersEnd !== null ? (r.endTimestamp - t.requestTime!) * 1000 - headersEnd : null;
  const phases: [string, number | null][] = [
    ['Queueing', queued],
    ['DNS lookup', span(at('dnsStart'), at('dnsEnd'))],
    ['Initial connection', span(at('connectStart'), at('connectEnd'))],
    ['SSL', span(at('sslStart'), at('sslEnd'))],
    ['Request sent', span(at('sendStart'), at('sendEnd'))],
    ['Waiting (TTFB)', span(at('sendEnd'), headersEnd)],
    ['Content download', download !== null && download >= 0 ? download : null],
  ];
  return phases.filter((p): p is [string, number] => p[1] !== null).map(([name, ms]) => ({ name, ms }));
}

// ---------------------------------------------------------------- figures

export interface TraceFigures {
  requests: number;
  failedRequests: number;
  consoleErrors: number;
  exceptions: number;
  navigations: number;
}

export function traceFigures(events: readonly TraceEvent[]): TraceFigures {
  const requests = buildRequests(events);
  let consoleErrors = 0;
  let exceptions = 0;
  let navigations = 0;
  for (const e of events) {
    if (e.kind === 'console' && e.level === 'error') consoleErrors++;
    else if (e.kind === 'exception') exceptions++;
    else if (e.kind === 'navigation' && e.main) navigations++;
  }
  return { requests: requests.length, failedRequests: requests.filter(isFailedRequest).length, consoleErrors, exceptions, navigations };
}
