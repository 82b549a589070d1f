// A trace's network events as HAR 1.2 (GET /v1/inspections/:id/events?download=har), built as the
// events stream by: only the requests in flight are held, and an entry is handed out when its
// request finishes or fails (the ones still in flight when the trace ends come last). Entries are
// therefore in the order their requests ended, not started, which HAR allows. Pure: events in,
// entries out, no clock and no I/O.
//
// Pages: one per main-frame navigation to a new document, per tab; an entry belongs to its tab's
// page current when its request started, except the document request that made a navigation,
// which belongs to the page it loaded. Redirects: a `request` event repeating a requestId with
// `redirectResponse` closes the previous hop as an entry of its own; the hops go out with the
// chain's last request, so the whole chain lands on one page. Request bodies are never stored, so
// a request has `bodySize` and no `postData`.
import { isIP } from 'node:net';
import type { FailedEvent, FinishedEvent, Headers, RequestEvent, ResponseEvent, Timing, TraceEvent } from './format';
import { HAR_CREATOR, type HarEntry, type HarNameValue, type HarPage, type HarResponse, type HarTimings } from './har-format';

/** A redirect hop's response as CDP hands it on the next hop's request. */
type RedirectResponse = NonNullable<RequestEvent['redirectResponse']>;

interface InFlight {
  request: RequestEvent;
  response?: ResponseEvent;
  /** The chain's earlier hops, already closed; they go out with the last one. */
  hops: HarEntry[];
  pageref?: string;
}

/** How the request ended: finished, failed, or not at all (the trace ended first). */
type Ending = { event: FinishedEvent | FailedEvent } | { redirect: RedirectResponse; at: number; location: string } | null;

export class HarBuilder {
  private readonly inFlight = new Map<string, InFlight>();
  private readonly currentPage = new Map<string, string>();
  private readonly pageList: HarPage[] = [];

  /** The pages seen so far (all of them once the events are through). */
  get pages(): readonly HarPage[] {
    return this.pageList;
  }

  /** Takes the next event; answers the entries it completed. */
  add(event: TraceEvent): HarEntry[] {
    switch (event.kind) {
      case 'navigation':
        if (event.main && !event.sameDocument && event.tab) this.navigated(event.tab, event.frameId, event.url, event.t);
        return [];
      case 'request':
        return this.requested(event);
      case 'response': {
        const flight = this.inFlight.get(keyOf(event.tab, event.requestId));
        if (flight) flight.response = event;
        return [];
      }
      case 'finished':
      case 'failed': {
        const key = keyOf(event.tab, event.requestId);
        const flight = this.inFlight.get(key);
        if (!flight) return [];
        this.inFlight.delete(key);
        return close(flight, { event });
      }
      default:
        return [];
    }
  }

  /** The trace is over: the requests still in flight, as unfinished entries. */
  finish(): HarEntry[] {
    const entries = [...this.inFlight.values()].flatMap((flight) => close(flight, null));
    this.inFlight.clear();
    return entries;
  }

  private navigated(tab: string, frameId: string, url: string, t: number) {
    const page: HarPage = {
      startedDateTime: new Date(t).toISOString(),
      id: `page_${this.pageList.length + 1}`,
      title: url,
      pageTimings: { onContentLoad: -1, onLoad: -1 },
    };
    this.pageList.push(page);
    this.currentPage.set(tab, page.id);
    // The document whose response made this navigation is still loading: it belongs to the new page.
    for (const flight of this.inFlight.values()) {
      if (flight.request.tab === tab && flight.request.type === 'Document' && flight.request.frameId === frameId) flight.pageref = page.id;
    }
  }

  private requested(event: RequestEvent): HarEntry[] {
    const key = keyOf(event.tab, event.requestId);
    const previous = this.inFlight.get(key);
    const pageref = event.tab ? this.currentPage.get(event.tab) : undefined;
    if (previous && event.redirectResponse) {
      const hop = entryOf(previous, { redirect: event.redirectResponse, at: event.timestamp, location: event.url });
      this.inFlight.set(key, { request: event, hops: [...previous.hops, hop], pageref: previous.pageref });
      return [];
    }
    this.inFlight.set(key, { request: event, hops: [], pageref });
    // The same id again without a redirect: the first never ended as far as the trace saw.
    return previous ? close(previous, null) : [];
  }
}

/** The HAR document up to its first entry: entries are written one by one after it, separated by commas. */
export const harOpening = () => `{"log":{"version":"1.2","creator":${JSON.stringify(HAR_CREATOR)},"entries":[`;
/** The rest of the document once every entry is out: the pages, which are known only then. */
export const harClosing = (pages: readonly HarPage[]) => `],"pages":${JSON.stringify(pages)}}}`;

/** A whole HAR in memory, for a handful of events (tests); the API streams with the builder. */
export function buildHar(events: Iterable<TraceEvent>) {
  const builder = new HarBuilder();
  const entries: HarEntry[] = [];
  for (const event of events) entries.push(...builder.add(event));
  entries.push(...builder.finish());
  return { log: { version: '1.2', creator: { ...HAR_CREATOR }, entries, pages: [...builder.pages] } };
}

const keyOf = (tab: string | null, requestId: string) => `${tab ?? ''}\u0000${requestId}`;

function close(flight: InFlight, ending: Ending): HarEntry[] {
  const last = entryOf(flight, ending);
  return [...flight.hops, last].map((entry) => (flight.pageref ? { pageref: flight.pageref, ...entry } : entry));
}

function entryOf(flight: InFlight, ending: Ending): HarEntry {
  const { request } = flight;
  const response = ending && 'redirect' in ending ? undefined : flight.response;
  const failed = ending && 'event' in ending && ending.event.kind === 'failed' ? ending.event : undefined;
  const endAt = ending ? ('at' in ending ? ending.at : ending.event.timestamp) : undefined;
  const headersAt = response?.timestamp ?? (ending && 'at' in ending ? ending.at : undefined);
  const timings = harTimings(request.timestamp, response?.timing, headersAt, endAt);
  const httpVersion = httpVersionOf(response?.protocol);
  const transferSize = Math.round(
    ending && 'event' in ending && ending.event.kind === 'finished' ? ending.event.encodedDataLength : (response?.encodedDataLength ?? 0),
  );

  let harResponse: HarResponse;
  if (ending && 'redirect' in ending) {
    const r = ending.redirect;
    harResponse = responseOf(r.status, r.statusText, '', r.headers, r.mimeType ?? '', ending.location, 0);
  } else if (response) {
    harResponse = responseOf(response.status, response.statusText, httpVersion, response.headers, response.mimeType, '', transferSize);
  } else {
    // No answer came: a failure before the response (DNS, connection refused, blocked), or unfinished.
    harResponse = { ...responseOf(0, '', '', {}, 'x-unknown', '', 0), bodySize: -1 };
  }
  if (failed) harResponse._error = failed.errorText;

  const address = serverAddressOf(response?.remoteAddress);
  return {
    startedDateTime: new Date(request.wallTime * 1000).toISOString(),
    time: totalOf(timings),
    request: {
      method: request.method,
      url: request.url,
      httpVersion,
      cookies: [],
      // The headers the browser really sent when the response says (cookies and host included, redacted).
      headers: headerList(response?.requestHeaders ?? request.headers),
      queryString: queryOf(request.url),
      headersSize: -1,
      bodySize: request.postDataBytes ?? 0,
    },
    response: harResponse,
    cache: {},
    timings,
    ...(address ? { serverIPAddress: address } : {}),
    _resourceType: (failed?.type ?? request.type).toLowerCase(),
    ...(ending ? {} : { _unfinished: true as const }),
  };
}

function responseOf(
  status: number,
  statusText: string,
  httpVersion: string,
  headers: Headers,
  mimeType: string,
  redirectURL: string,
  size: number,
): HarResponse {
  return {
    status,
    statusText,
    httpVersion,
    cookies: [],
    headers: headerList(headers),
    // The trace keeps transfer sizes only: the decoded size is not known.
    content: { size, mimeType },
    redirectURL,
    headersSize: -1,
    bodySize: size,
    _transferSize: size,
  };
}

/**
 * HAR timings (ms) from CDP's ResourceTiming: `requestTime` (monotonic s) and offsets in ms from it,
 * -1 where a phase did not happen (a reused connection has no dns, connect or ssl). `blocked` is the
 * time before the first network phase, queueing included; `ssl` lies within `connect`, as HAR
 * counts it. Without ResourceTiming (a redirect hop, a failure before any answer) the time until
 * the answer (or the failure) is `wait` and the rest `receive`. An unfinished request receives 0.
 */
export function harTimings(startS: number, timing: Timing | undefined, headersAtS: number | undefined, endS: number | undefined): HarTimings {
  if (!timing || !(timing.requestTime! > 0)) {
    const answeredAt = headersAtS ?? endS ?? startS;
    return rounded({
      blocked: -1,
      dns: -1,
      connect: -1,
      ssl: -1,
      send: 0,
      wait: msBetween(startS, answeredAt),
      receive: endS === undefined ? 0 : msBetween(answeredAt, endS),
    });
  }
  const at = (name: string) => (typeof timing[name] === 'number' && timing[name] >= 0 ? timing[name] : -1);
  const span = (start: string, end: string) => (at(start) >= 0 && at(end) >= 0 ? Math.max(0, at(end) - at(start)) : -1);
  const queued = msBetween(startS, timing.requestTime!);
  const firstPhase = [at('dnsStart'), at('connectStart'), at('sendStart')].filter((v) => v >= 0);
  const blocked = firstPhase.length > 0 ? queued + Math.min(...firstPhase) : queued > 0 ? queued : -1;
  const headersEnd = at('receiveHeadersEnd');
  return rounded({
    blocked,
    dns: span('dnsStart', 'dnsEnd'),
    connect: span('connectStart', 'connectEnd'),
    ssl: span('sslStart', 'sslEnd'),
    send: Math.max(0, span('sendStart', 'sendEnd')),
    wait: headersEnd >= 0 ? Math.max(0, headersEnd - Math.max(0, at('sendEnd'))) : 0,
    receive: endS === undefined ? 0 : Math.max(0, (endS - timing.requestTime!) * 1000 - Math.max(0, headersEnd)),
  });
}

/** An entry's `time`: the sum of its phases, `ssl` left out (it is within `connect`), -1 counting as 0. */
const totalOf = (t: HarTimings) => round([t.blocked, t.dns, t.connect, t.send, t.wait, t.receive].reduce((sum, v) => sum + Math.max(0, v), 0));

const msBetween = (fromS: number, toS: number) => Math.max(0, (toS - fromS) * 1000);
const round = (ms: number) => Math.round(ms * 1000) / 1000;
const rounded = (t: HarTimings): HarTimings => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v < 0 ? -1 : round(v)])) as unknown as HarTimings;

/** Header lines as HAR lists them: one per value (CDP joins repeated headers with newlines). */
function headerList(headers: Headers | undefined): HarNameValue[] {
  return Object.entries(headers ?? {}).flatMap(([name, value]) =>
    String(value)
      .split('\n')
      .map((line) => ({ name, value: line })),
  );
}

function queryOf(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

const HTTP_VERSIONS: Record<string, string> = { 'http/0.9': 'HTTP/0.9', 'http/1.0': 'HTTP/1.0', 'http/1.1': 'HTTP/1.1', h2: 'HTTP/2.0', h3: 'HTTP/3' };
const httpVersionOf = (protocol: string | undefined) => (protocol ? (HTTP_VERSIONS[protocol.toLowerCase()] ?? protocol) : '');

/** `203.0.113.5:443` or `[2001:db8::1]:443` to the bare address HAR wants; anything else is left out. */
function serverAddressOf(remote: string | undefined): string | undefined {
  if (!remote) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(remote);
  const address = bracketed ? bracketed[1]! : remote.includes('.') ? remote.replace(/:\d+$/, '') : remote;
  return isIP(address) ? address : undefined;
}
