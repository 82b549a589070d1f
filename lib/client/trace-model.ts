// What the trace viewer shows, made from a trace's events (lib/traces/format.ts): requests joined
// by requestId, console lines, each tab's navigations, all placed on one time axis. Pure: events in,
// rows out, no clock and no I/O.
//
// The axis is the proxy's clock (Unix ms): event `t`, the trace's startedAt and a recording's
// startedAt all come from it. A request's start and end come from the browser (`wallTime`, and the
// monotonic `timestamp` of its events), whose clock may differ from the proxy's: the offset between
// the two is estimated from the requests themselves (the smallest gap between a request's wallTime
// and when the proxy saw it) and added to every browser time.
import type { ConsoleEvent, Headers, NavigationEvent, NoteEvent, Timing, TraceEvent } from '../traces/format';

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
  const rows: NetworkRequest[] = [];
  const current = new Map<string, { row: NetworkRequest; hops: number }>();
  const endAt = (row: NetworkRequest, timestamp: number, t: number) => {
    row.endTimestamp = timestamp > 0 ? timestamp : null;
    row.end = monotonicToAxis(row, timestamp, offset) ?? t;
  };
  const open = (e: { requestId: string; seq: number; t: number; tab: string | null; url: string }, hops: number): NetworkRequest => {
    const row: NetworkRequest = {
      key: hops === 0 ? e.requestId : `${e.requestId}#${hops}`, requestId: e.requestId, seq: e.seq, tab: e.tab, url: e.url, method: 'GET', type: 'Other',
      status: null, statusText: '', mimeType: null, requestHeaders: {}, responseHeaders: null, fromCache: false, transferBytes: null, error: null, redirectedTo: null,
      timestamp: 0, wallTime: 0, endTimestamp: null, start: e.t, end: null,
    };
    rows.push(row);
    current.set(e.requestId, { row, hops });
    return row;
  };
  const rowOf = (e: { requestId: string; seq: number; t: number; tab: string | null }, url = '') => current.get(e.requestId)?.row ?? open({ ...e, url }, 0);

  for (const e of events) {
    switch (e.kind) {
      case 'request': {
        const before = current.get(e.requestId);
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
          if (hop.end === null) endAt(hop, e.timestamp, e.t);
        }
        const row = open(e, before ? before.hops + 1 : 0);
        Object.assign(row, {
          method: e.method, type: e.type, requestHeaders: e.headers, postDataBytes: e.postDataBytes, initiator: e.initiator,
          timestamp: e.timestamp, wallTime: e.wallTime, start: e.wallTime > 0 ? e.wallTime * 1000 + offset : e.t,
        });
        break;
      }
      case 'response': {
        const row = rowOf(e, e.url);
        Object.assign(row, {
          status: e.status, statusText: e.statusText, mimeType: e.mimeType, responseHeaders: e.headers, protocol: e.protocol, remoteAddress: e.remoteAddress,
          fromCache: e.fromCache, timing: e.timing, transferBytes: e.encodedDataLength, type: e.type || row.type,
        } satisfies Partial<NetworkRequest>);
        if (e.requestHeaders && Object.keys(e.requestHeaders).length > 0) row.requestHeaders = mergeHeaders(row.requestHeaders, e.requestHeaders);
        break;
      }
      case 'finished': {
        const row = rowOf(e);
        row.transferBytes = e.encodedDataLength;
        endAt(row, e.timestamp, e.t);
        break;
      }
      case 'failed': {
        const row = rowOf(e);
        row.error = { text: e.errorText, canceled: e.canceled, ...(e.blockedReason && { blockedReason: e.blockedReason }) };
        if (e.type) row.type = e.type;
        endAt(row, e.timestamp, e.t);
        break;
      }
    }
  }
  return rows.sort((a, b) => a.start - b.start || a.seq - b.seq);
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
export const TYPE_FILTER_LABELS: Record<TypeFilter, string> = { all: 'All', document: 'Document', fetch: 'XHR/Fetch', script: 'Script', stylesheet: 'Stylesheet', image: 'Image', other: 'Other' };

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
  return requests.filter((r) => (type === 'all' || typeCategory(r.type) === type) && (!failedOnly || isFailedRequest(r)) && (!text || r.url.toLowerCase().includes(text)));
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

// ---------------------------------------------------------------- console

export type ConsoleGroup = 'error' | 'warning' | 'info' | 'log';
export const CONSOLE_GROUPS: readonly ConsoleGroup[] = ['error', 'warning', 'info', 'log'];
export const CONSOLE_GROUP_LABELS: Record<ConsoleGroup, string> = { error: 'Errors', warning: 'Warnings', info: 'Info', log: 'Logs' };

export interface ConsoleEntry {
  key: string;
  seq: number;
  t: number;
  tab: string | null;
  kind: 'console' | 'exception';
  level: ConsoleEvent['level'];
  /** The filter it falls under: exceptions are errors, debug lines are logs. */
  group: ConsoleGroup;
  source: string;
  text: string;
  stack?: string;
  url?: string;
  line?: number;
  column?: number;
}

export function consoleEntries(events: readonly TraceEvent[]): ConsoleEntry[] {
  const out: ConsoleEntry[] = [];
  for (const e of events) {
    if (e.kind === 'console') {
      out.push({ key: String(e.seq), seq: e.seq, t: e.t, tab: e.tab, kind: 'console', level: e.level, group: e.level === 'debug' ? 'log' : e.level, source: e.source, text: e.text, url: e.url, line: e.line, column: e.column });
    } else if (e.kind === 'exception') {
      out.push({ key: String(e.seq), seq: e.seq, t: e.t, tab: e.tab, kind: 'exception', level: 'error', group: 'error', source: 'exception', text: e.text, stack: e.stack, url: e.url, line: e.line, column: e.column });
    }
  }
  return out;
}

export function filterConsole(entries: readonly ConsoleEntry[], { groups, search }: { groups: ReadonlySet<ConsoleGroup>; search: string }): ConsoleEntry[] {
  const text = search.trim().toLowerCase();
  return entries.filter((e) => groups.has(e.group) && (!text || e.text.toLowerCase().includes(text) || (e.stack?.toLowerCase().includes(text) ?? false) || (e.url?.toLowerCase().includes(text) ?? false)));
}

export function countGroups(entries: readonly ConsoleEntry[]): Record<ConsoleGroup, number> {
  const counts: Record<ConsoleGroup, number> = { error: 0, warning: 0, info: 0, log: 0 };
  for (const e of entries) counts[e.group]++;
  return counts;
}

/** Where a console line came from, as `file.js:12:5` (the URL's last segment). */
export function sourceLocation(e: Pick<ConsoleEntry, 'url' | 'line' | 'column'>): string | null {
  if (!e.url) return null;
  const { path } = splitUrl(e.url);
  const file = path.split('?')[0]!.split('/').filter(Boolean).at(-1) || path || e.url;
  return [file, e.line, e.line !== undefined ? e.column : undefined].filter((p) => p !== undefined).join(':');
}

// ---------------------------------------------------------------- tabs and navigations

export interface TabTimeline {
  tab: string;
  openedAt: number | null;
  closedAt: number | null;
  /** The address it opened with, else its first navigation's. */
  url: string | null;
  openerId?: string;
  /** Main-frame navigations, in order. */
  navigations: Pick<NavigationEvent, 'seq' | 't' | 'url' | 'sameDocument'>[];
}

export function tabTimelines(events: readonly TraceEvent[]): TabTimeline[] {
  const tabs = new Map<string, TabTimeline>();
  const tabOf = (id: string) => {
    let tab = tabs.get(id);
    if (!tab) {
      tab = { tab: id, openedAt: null, closedAt: null, url: null, navigations: [] };
      tabs.set(id, tab);
    }
    return tab;
  };
  for (const e of events) {
    if (!e.tab) continue;
    if (e.kind === 'tab') {
      const tab = tabOf(e.tab);
      if (e.action === 'opened') {
        tab.openedAt ??= e.t;
        tab.url ||= e.url || null;
        if (e.openerId) tab.openerId = e.openerId;
      } else {
        tab.closedAt = e.t;
      }
    } else if (e.kind === 'navigation' && e.main) {
      const tab = tabOf(e.tab);
      tab.navigations.push({ seq: e.seq, t: e.t, url: e.url, sameDocument: e.sameDocument });
      if (!tab.url || tab.url === 'about:blank') tab.url = e.url;
    }
  }
  return [...tabs.values()];
}

export const traceNotes = (events: readonly TraceEvent[]): NoteEvent[] => events.filter((e): e is NoteEvent => e.kind === 'note');

// ---------------------------------------------------------------- the axis

export interface TimeAxis {
  start: number;
  end: number;
}

/** From the trace's start (or its first event) to its end (or its last request or event). */
export function traceAxis(bounds: { startedAt: number | null; endedAt: number | null }, events: readonly Pick<TraceEvent, 't'>[], requests: readonly Pick<NetworkRequest, 'start' | 'end'>[]): TimeAxis {
  let start = bounds.startedAt ?? Infinity;
  let end = bounds.endedAt ?? -Infinity;
  for (const e of events) {
    if (e.t < start) start = e.t;
    if (e.t > end) end = e.t;
  }
  for (const r of requests) {
    if (r.start < start) start = r.start;
    if ((r.end ?? r.start) > end) end = r.end ?? r.start;
  }
  if (!Number.isFinite(start)) start = Number.isFinite(end) ? end : 0;
  if (!Number.isFinite(end) || end <= start) end = start + 1;
  return { start, end };
}

/** Where `t` sits on the axis, 0 to 1. */
export const axisFraction = (axis: TimeAxis, t: number) => Math.min(1, Math.max(0, (t - axis.start) / (axis.end - axis.start)));

/** The ruler's marks: offsets from the axis start (ms), about `count` of them, 1, 2 or 5 × 10^n ms apart. */
export function axisTicks(axis: TimeAxis, count = 6): number[] {
  const span = axis.end - axis.start;
  const rough = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(Math.max(rough, 1e-3)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let at = 0; at <= span + 1e-9; at += step) ticks.push(at);
  return ticks;
}

/** A span of milliseconds: 850 ms, 1.25 s, 2 min 5 s. */
export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** A moment of the trace as the time since the axis started: +0.000 s. */
export const formatAt = (axis: TimeAxis, t: number) => `+${((t - axis.start) / 1000).toFixed(3)} s`;

/** A moment of the trace as a position of the recording's player (ms since the recording started). */
export const playerPositionAt = (t: number, recordingStartedAt: number) => Math.max(0, t - recordingStartedAt);

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
