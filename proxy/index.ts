// The proxy process. For now: a health endpoint and the periodic maintenance jobs; the connect
// endpoint, data API and MCP surface arrive with their issues.
import http from 'node:http';
import { log } from '../lib/log';
import { purgeDeletedAccounts } from '../lib/users/delete-account';

const port = Number(process.env.PORT ?? 9500);
const host = process.env.HOST ?? '127.0.0.1';

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && (req.url === '/health' || req.url === '/v1/health')) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
    return;
  }
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
});

const HOUR_MS = 3_600_000;
const maintenance = setInterval(() => {
  purgeDeletedAccounts().catch((err: Error) => log.error({ err: err.message }, 'account purge failed'));
}, HOUR_MS);
maintenance.unref();

server.listen(port, host, () => log.info({ port, host }, 'proxy listening'));

function shutdown() {
  clearInterval(maintenance);
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1_000).unref();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
