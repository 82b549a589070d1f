// Calling the data API the way clients do: POST with JSON and the router key, over real HTTP from
// a random loopback address (so one test's failed keys never throttle another's).
import http from 'node:http';
import { randomLoopback } from './connect';

export const PROXY_HTTP = process.env.TEST_PROXY_URL ?? 'http://localhost:9500';

export interface DataResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json: any;
  ms: number;
}

export interface CallOptions {
  /** `bearer` (default), `query` (?token=) or `none`. */
  auth?: 'bearer' | 'query' | 'none';
  rawBody?: string | Buffer;
  base?: string;
  localAddress?: string;
  method?: string;
}

export function dataApi(endpoint: 'screenshot' | 'content' | 'scrape', key: string, body: unknown, options: CallOptions = {}): Promise<DataResponse> {
  const auth = options.auth ?? 'bearer';
  const url = new URL(`${options.base ?? PROXY_HTTP}/v1/${endpoint}`);
  if (auth === 'query') url.searchParams.set('token', key);
  const payload = options.rawBody ?? JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth === 'bearer') headers.authorization = `Bearer ${key}`;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'POST', headers, localAddress: options.localAddress ?? randomLoopback() }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const buf = Buffer.concat(chunks);
        const text = /json|text/.test(String(res.headers['content-type'])) ? buf.toString('utf8') : '';
        let json: any = null;
        try {
          json = text ? JSON.parse(text) : null;
        } catch {
          /* plain text */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: buf, text, json, ms: performance.now() - started });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Fails with the response's error body when the status is not the expected one. */
export function expectStatus(res: DataResponse, status: number): DataResponse {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text.slice(0, 500) || `${res.body.length} bytes`}`);
  return res;
}
