// The HAR 1.2 records a trace's network events become (lib/traces/har.ts builds them); each field
// holds what HAR 1.2 says, as Chromium and Playwright write it.

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarTimings {
  blocked: number;
  dns: number;
  connect: number;
  ssl: number;
  send: number;
  wait: number;
  receive: number;
}

export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: never[];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  headersSize: -1;
  bodySize: number;
}

export interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: never[];
  headers: HarNameValue[];
  content: { size: number; mimeType: string };
  redirectURL: string;
  headersSize: -1;
  bodySize: number;
  _transferSize: number;
  /** Why the request failed (CDP's errorText, e.g. net::ERR_NAME_NOT_RESOLVED). */
  _error?: string;
}

export interface HarEntry {
  pageref?: string;
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, never>;
  timings: HarTimings;
  serverIPAddress?: string;
  /** CDP's resource type in lower case (DevTools' HAR has the same field). */
  _resourceType: string;
  /** The trace ended before the request did. */
  _unfinished?: true;
}

export interface HarPage {
  startedDateTime: string;
  id: string;
  title: string;
  pageTimings: { onContentLoad: number; onLoad: number };
}

export const HAR_CREATOR = { name: 'browser-router', version: '1' } as const;
