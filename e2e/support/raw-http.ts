// Raw HTTP to the web port for tests of odd requests: the path exactly as given (fetch would
// normalise it) and any method (fetch refuses TRACE), and the API's error envelope checked whole.
import assert from 'node:assert/strict';
import http from 'node:http';
import { WEB } from './api';

export interface RawRes {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

const web = new URL(WEB);

/** JSON.parse, or undefined for a body that is not JSON. */
export function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One request to the web port with the path exactly as given (no normalisation) and any method. */
export function raw(method: string, path: string, options: { headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawRes> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: web.hostname, port: web.port, method, path, headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, text, json: parseJson(text) });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The envelope and nothing else: `ok`, `error.code`, `error.message`, and `error.details` when present. */
export function expectEnvelope(res: RawRes, status: number, code: string) {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status}: ${res.text.slice(0, 300)}`);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.deepEqual(Object.keys(res.json ?? {}).sort(), ['error', 'ok'], res.text.slice(0, 300));
  assert.equal(res.json.ok, false);
  assert.equal(res.json.error.code, code);
  assert.ok(typeof res.json.error.message === 'string' && res.json.error.message.length > 0);
  for (const key of Object.keys(res.json.error)) assert.ok(['code', 'message', 'details'].includes(key), `unexpected error.${key}`);
  if (res.json.error.details !== undefined) {
    assert.ok(Array.isArray(res.json.error.details));
    for (const d of res.json.error.details) assert.deepEqual(Object.keys(d).sort(), ['message', 'path']);
  }
  return res.json.error as { code: string; message: string; details?: { path: string; message: string }[] };
}
