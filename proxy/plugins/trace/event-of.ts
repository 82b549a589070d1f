// The trace's record of each provider event it keeps (docs/traces.md, "Capture"): URLs and headers
// redacted (the router's extra names too), long texts clipped. Tabs and downloads are followed by
// the plugin itself (plugin.ts, downloads.ts).
import type { CapturedEvent, Headers } from '../../../lib/traces/format';
import { clip, URL_MAX_CHARS } from '../../../lib/traces/format';
import { redactHeaders, redactUrl } from '../../../lib/traces/redact';
import { consoleLevel, describe, location, logLevel } from './console-text';

/** When and where the event happened, and the router's extra names to redact. */
export interface EventContext {
  t: number;
  tab: string | null;
  extra: ReadonlySet<string>;
}

type Params = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- CDP params, read field by field

const EVENT_OF: Record<string, (p: Params, at: EventContext) => CapturedEvent> = {
  'Network.requestWillBeSent': (p, at) => {
    const request = p.request ?? {};
    const postData = typeof request.postData === 'string' ? Buffer.byteLength(request.postData) : undefined;
    const redirect = p.redirectResponse;
    return {
      kind: 'request',
      t: at.t,
      tab: at.tab,
      requestId: String(p.requestId),
      frameId: p.frameId,
      url: clip(redactUrl(String(request.url ?? ''), at.extra), URL_MAX_CHARS),
      method: String(request.method ?? 'GET'),
      type: String(p.type ?? 'Other'),
      headers: redactHeaders(request.headers, at.extra),
      ...(postData !== undefined && { postDataBytes: postData }),
      initiator: p.initiator?.type,
      wallTime: Number(p.wallTime ?? 0),
      timestamp: Number(p.timestamp ?? 0),
      ...(redirect && {
        redirectResponse: {
          status: Number(redirect.status ?? 0),
          statusText: String(redirect.statusText ?? ''),
          headers: redactHeaders(redirect.headers, at.extra),
          mimeType: redirect.mimeType,
        },
      }),
    };
  },
  'Network.responseReceived': (p, at) => {
    const r = p.response ?? {};
    return {
      kind: 'response',
      t: at.t,
      tab: at.tab,
      requestId: String(p.requestId),
      url: clip(redactUrl(String(r.url ?? ''), at.extra), URL_MAX_CHARS),
      status: Number(r.status ?? 0),
      statusText: String(r.statusText ?? ''),
      mimeType: String(r.mimeType ?? ''),
      headers: redactHeaders(r.headers, at.extra),
      ...(r.requestHeaders && { requestHeaders: redactHeaders(r.requestHeaders, at.extra) as Headers }),
      protocol: r.protocol,
      remoteAddress: r.remoteIPAddress ? `${r.remoteIPAddress}:${r.remotePort ?? ''}` : undefined,
      fromCache: Boolean(r.fromDiskCache || r.fromPrefetchCache || r.fromMemoryCache),
      fromServiceWorker: Boolean(r.fromServiceWorker),
      timing: r.timing,
      encodedDataLength: Number(r.encodedDataLength ?? 0),
      type: String(p.type ?? 'Other'),
      timestamp: Number(p.timestamp ?? 0),
    };
  },
  'Network.loadingFinished': (p, at) => {
    return {
      kind: 'finished',
      t: at.t,
      tab: at.tab,
      requestId: String(p.requestId),
      encodedDataLength: Number(p.encodedDataLength ?? 0),
      timestamp: Number(p.timestamp ?? 0),
    };
  },
  'Network.loadingFailed': (p, at) => {
    return {
      kind: 'failed',
      t: at.t,
      tab: at.tab,
      requestId: String(p.requestId),
      errorText: String(p.errorText ?? ''),
      canceled: Boolean(p.canceled),
      ...(p.blockedReason && { blockedReason: String(p.blockedReason) }),
      type: String(p.type ?? 'Other'),
      timestamp: Number(p.timestamp ?? 0),
    };
  },
  'Runtime.consoleAPICalled': (p, at) => {
    const top = p.stackTrace?.callFrames?.[0];
    return {
      kind: 'console',
      t: at.t,
      tab: at.tab,
      level: consoleLevel(String(p.type)),
      source: String(p.type ?? 'log'),
      text: clip(((p.args ?? []) as unknown[]).map(describe).join(' ')),
      ...location(top, at.extra),
    };
  },
  'Runtime.exceptionThrown': (p, at) => {
    const d = p.exceptionDetails ?? {};
    const description: string | undefined = d.exception?.description;
    const headline = description ? description.split('\n')[0] : (d.exception?.value ?? '');
    return {
      kind: 'exception',
      t: at.t,
      tab: at.tab,
      text: clip([d.text, headline].filter(Boolean).join(' ')),
      ...(description && description.includes('\n') && { stack: clip(description) }),
      ...location(d.url !== undefined ? { url: d.url, lineNumber: d.lineNumber, columnNumber: d.columnNumber } : d.stackTrace?.callFrames?.[0], at.extra),
    };
  },
  'Log.entryAdded': (p, at) => {
    const e = p.entry ?? {};
    return {
      kind: 'console',
      t: at.t,
      tab: at.tab,
      level: logLevel(String(e.level)),
      source: String(e.source ?? 'other'),
      text: clip(String(e.text ?? '')),
      ...location(e, at.extra),
    };
  },
  'Page.frameNavigated': (p, at) => {
    const frame = p.frame ?? {};
    return {
      kind: 'navigation',
      t: at.t,
      tab: at.tab,
      frameId: String(frame.id),
      main: !frame.parentId,
      url: clip(redactUrl(String(frame.url ?? '') + String(frame.urlFragment ?? ''), at.extra), URL_MAX_CHARS),
      sameDocument: false,
    };
  },
  'Page.navigatedWithinDocument': (p, at) => {
    return {
      kind: 'navigation',
      t: at.t,
      tab: at.tab,
      frameId: String(p.frameId),
      main: p.frameId === at.tab,
      url: clip(redactUrl(String(p.url ?? ''), at.extra), URL_MAX_CHARS),
      sameDocument: true,
    };
  },
};

/** The record of a kept event; null for a method this table does not make (tabs, downloads, the rest). */
export function eventOf(method: string, p: Params, at: EventContext): CapturedEvent | null {
  return Object.hasOwn(EVENT_OF, method) ? EVENT_OF[method]!(p, at) : null;
}
