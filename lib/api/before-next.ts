// What the web server settles for a /v1 or /api request before Next sees it, because Next would
// answer outside the API's envelope: a path that is not valid percent-encoding (Next: a text/plain
// 500), a method the route does not serve (Next: an empty 405, a 400 for WebDAV-style methods, a 500
// for TRACE, which a fetch Request cannot carry). It also puts the path in its canonical form
// (dot segments resolved as URL parsers do, repeated and trailing slashes dropped) so that
// `/v1/routers/` is `/v1/routers` rather than a redirect, and `/v1/routers/..` is `/v1`. A page's
// path that is not valid percent-encoding gets a 400 page, where Next would answer a 500.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, errorBody } from './errors';
import { allowedMethods, matchRoute } from './routes';
import { unknownEndpoint } from './unknown-endpoint';

/** The methods Next's route handlers can be given; anything else never reaches them intact. */
const NEXT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** Methods the fetch standard forbids: Next fails on them whatever the path (a 500); outside /v1 they are a 501. */
const UNREPRESENTABLE = new Set(['TRACE', 'TRACK', 'CONNECT']);

const BAD_PATH_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Bad request</title><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem"><h1>Bad request</h1><p>This address is not valid: a <code>%</code> in it must start a character written as two hexadecimal digits.</p><p><a href="/">Go to the dashboard</a></p></body></html>';

const isSingleDot = (s: string) => s === '.' || s.toLowerCase() === '%2e';
const isDoubleDot = (s: string) => ['..', '.%2e', '%2e.', '%2e%2e'].includes(s.toLowerCase());

/** `/v1//routers/./x/../` → `/v1/routers`, on the still-encoded path, as the WHATWG URL parser resolves dots. */
export function canonicalPath(rawPath: string): string {
  const out: string[] = [];
  for (const segment of rawPath.replace(/\\/g, '/').split('/')) {
    if (segment === '' || isSingleDot(segment)) continue;
    if (isDoubleDot(segment)) out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

export type Verdict =
  | { kind: 'pass'; url?: string }
  | { kind: 'answer'; error: ApiError; headers?: Record<string, string> }
  /** Outside the API (pages, assets): a method no part of this server implements. */
  | { kind: 'not-implemented' }
  /** Outside the API: a path that is not valid percent-encoding. */
  | { kind: 'bad-page-path' };

/** The path's segments decoded, or null when one is not valid percent-encoding. */
function decoded(path: string): string[] | null {
  try {
    return path.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return null;
  }
}

/** The decision for one request line, apart from any I/O (unit-tested in before-next.test.ts). */
export function judge(method: string, rawUrl: string, hostHeader: string | null): Verdict {
  const q = rawUrl.indexOf('?');
  const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const search = q < 0 ? '' : rawUrl.slice(q);
  const prefix = /^[/\\](v1|api)(?:[/\\?]|$)/.exec(rawPath)?.[1];
  if (!prefix) {
    if (UNREPRESENTABLE.has(method)) return { kind: 'not-implemented' };
    return decoded(canonicalPath(rawPath)) ? { kind: 'pass' } : { kind: 'bad-page-path' };
  }
  const path = canonicalPath(rawPath);
  // `/v1/../overview` is not an API path once resolved: Next resolves it the same way.
  if (path !== `/${prefix}` && !path.startsWith(`/${prefix}/`)) return judge(method, path + search, hostHeader);

  const segments = decoded(path);
  if (!segments) {
    return {
      kind: 'answer',
      error: new ApiError(
        'validation_error',
        `the path ${JSON.stringify(path)} is not valid percent-encoding (each % must start a UTF-8 byte written as two hex digits)`,
      ),
    };
  }
  const url = path === rawPath ? undefined : path + search;
  const route = matchRoute(segments);
  if (!route) {
    // The catch-all route answers the methods Next can hand it; the others are answered here.
    if (NEXT_METHODS.has(method)) return { kind: 'pass', url };
    return { kind: 'answer', error: unknownEndpoint(method, path, hostHeader) };
  }
  const allowed = allowedMethods(route);
  if (allowed.includes(method)) return { kind: 'pass', url };
  return {
    kind: 'answer',
    error: new ApiError(
      'method_not_allowed',
      `${method} is not served at ${path}; it takes ${allowed.filter((m) => m !== 'HEAD' && m !== 'OPTIONS').join(', ')}`,
    ),
    headers: { Allow: allowed.join(', ') },
  };
}

/** True when it answered the request; otherwise Next handles it (with the path made canonical). */
export function answerBeforeNext(req: IncomingMessage, res: ServerResponse): boolean {
  const verdict = judge(req.method ?? 'GET', req.url ?? '/', req.headers.host ?? null);
  if (verdict.kind === 'pass') {
    if (verdict.url) req.url = verdict.url;
    return false;
  }
  if (verdict.kind === 'not-implemented') {
    res.writeHead(501, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' }).end(`${req.method} is not supported by this server\n`);
    return true;
  }
  if (verdict.kind === 'bad-page-path') {
    res.writeHead(400, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(req.method === 'HEAD' ? undefined : BAD_PATH_PAGE);
    return true;
  }
  const { error } = verdict;
  const body = JSON.stringify(errorBody(error));
  // A body the client is still sending is not read: the connection closes after the answer.
  const unreadBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  res.writeHead(error.status, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    'X-Request-Id': randomUUID(),
    ...(unreadBody ? { Connection: 'close' } : {}),
    ...error.headers,
    ...verdict.headers,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
