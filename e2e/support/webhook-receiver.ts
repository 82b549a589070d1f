// A real HTTP server receiving webhooks in tests. Each request is recorded (arrival time, headers,
// parsed body) and answered by the test's `answer` function: a status code, or 'hang' to keep the
// request open until the receiver closes. Tests wait for requests as they arrive, never by sleeping.
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  /** performance.now() at arrival, for measuring gaps. */
  at: number;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
}

export type Answer = number | 'hang';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Requests to `path` (all when omitted). */
  on(path?: string): Received[];
  /** Resolves once `count` requests matched `filter`, or rejects at the deadline. */
  waitFor(count: number, filter?: (r: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(options: { port?: number; answer?: (request: Received, nthOnPath: number) => Answer } = {}): Promise<Receiver> {
  const received: Received[] = [];
  const events = new EventEmitter();
  events.setMaxListeners(100);
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        /* recorded raw */
      }
      const request: Received = { at: performance.now(), path: req.url ?? '/', headers: req.headers, raw, body };
      received.push(request);
      const nth = received.filter((r) => r.path === request.path).length;
      const answer = options.answer?.(request, nth) ?? 200;
      if (answer === 'hang') hanging.add(res);
      else res.writeHead(answer, { 'Content-Type': 'text/plain' }).end(answer < 300 ? 'ok' : 'no');
      events.emit('request');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    on: (path) => received.filter((r) => path === undefined || r.path === path),
    waitFor(count, filter = () => true, timeoutMs = 15_000) {
      const matching = () => received.filter(filter);
      if (matching().length >= count) return Promise.resolve(matching());
      return new Promise((resolve, reject) => {
        const onRequest = () => {
          if (matching().length < count) return;
          clearTimeout(timer);
          events.off('request', onRequest);
          resolve(matching());
        };
        const timer = setTimeout(() => {
          events.off('request', onRequest);
          reject(new Error(`receiver: ${matching().length} of ${count} expected requests within ${timeoutMs} ms`));
        }, timeoutMs);
        events.on('request', onRequest);
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
