// The web process: Next's request handler behind a plain HTTP server, so that the forwarding
// headers the app reads (client IP for throttles, host for same-origin checks) are the socket's,
// not whatever a client sent. Behind a reverse proxy that sets them, TRUST_PROXY=1 keeps them.
import http from 'node:http';
import next from 'next';
import { restoreContentLength } from '../lib/api/body-length';
import { checkBlobStoreConfig } from '../lib/blobs/config';
import { settings } from '../lib/config/settings';
import { keepLocalPoolProbed } from '../lib/providers/local-pool-probe';

try {
  checkBlobStoreConfig();
  // Every setting is read now: bad ones stop the start, each named.
  settings();
} catch (error) {
  console.error(`web could not start: ${(error as Error).message}`);
  process.exit(1);
}

const { webPort: port, host: hostname, trustProxy } = settings();

const app = next({ dev: false, hostname, port });
// The checks before Next read every endpoint's declaration (the route table, about 0.15 CPU-s on a
// small machine): they load while Next prepares.
const [{ answerBeforeNext }] = await Promise.all([import('../lib/api/before-next'), app.prepare()]);
const handle = app.getRequestHandler();

const server = http.createServer((req, res) => {
  if (!trustProxy) {
    delete req.headers['x-forwarded-host'];
    delete req.headers['x-forwarded-proto'];
    req.headers['x-forwarded-for'] = req.socket.remoteAddress ?? 'unknown';
  }
  // /v1 requests Next would answer outside the API's envelope (bad percent-encoding, unserved methods).
  if (answerBeforeNext(req, res)) return;
  // Streamed files (a recording's video and chunks) keep the length their handler knows.
  restoreContentLength(res);
  void handle(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => console.log(`web listening on http://${hostname}:${port}`));
// The local pool's capabilities, for the local-pool provider of every new router.
const stopProbing = keepLocalPoolProbed();

const stop = () => {
  stopProbing();
  server.close(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
