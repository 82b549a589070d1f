// The pool's HTTP and WebSocket surface (README.md in this folder is its reference):
//   WS   / and /devtools/browser[/…]            one fresh browser per connection
//   GET  /pool/status                           the managed-provider protocol (version 1)
//   GET  /pool/sessions                         live sessions
//   POST /pool/prepare                          upload an IndexedDB archive → { prepareId }
//   GET  /pool/sessions/:id/indexeddb           the archive saved at the end of a session (with its key)
//   DELETE /pool/sessions/:id/indexeddb         frees it early (with its key)
//   GET  /pool/sessions/:id/downloads           the files the session's browser downloaded (with its key)
//   GET  /pool/sessions/:id/downloads/:index    one of them; DELETE …/downloads frees them early
//   GET  /json/version                          like Chrome, for CDP clients that start from http://
// Every request needs POOL_TOKEN; snapshots also need the session's own X-Pool-Snapshot-Key.
import { createReadStream } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../lib/log';
import { sameSecret, tokenCheck } from './auth';
import { checkExposure, type PoolConfig } from './config';
import { BrowserPool, type PoolOptions } from './pool';
import { invalidUpgrade, writeRefusal as refuse } from '../websocket/handshake';
import { discardBody, readBody } from '../http/body';
import { guarded, json, text } from '../http/respond';
import { discardDownloads } from './downloads';
import { ARCHIVE_ROOTS, ArchiveError, ArchiveTooLargeError, unpack } from './tar';

const WS_PATH = /^\/(devtools\/browser(\/[^/]*)?)?$/;
const SESSION_FILES_PATH = /^\/pool\/sessions\/([0-9a-f-]{36})\/(indexeddb|downloads)(?:\/(\d{1,6}))?$/;
const SNAPSHOT_WAIT_MS = 30_000;

export interface RunningPool {
  pool: BrowserPool;
  server: http.Server;
  port: number;
  close(): Promise<void>;
}

export async function startPool(config: PoolConfig, log: Logger, options: PoolOptions = {}): Promise<RunningPool> {
  const exposure = checkExposure(config);
  if (exposure) throw new Error(exposure);
  const pool = new BrowserPool(config, log, options);
  await pool.start();
  const authorized = tokenCheck(config.token);

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://pool');
    if (!authorized(req, url)) return text(res, 401, 'unauthorized', { 'www-authenticate': 'Bearer' });
    guarded(res, handleRequest(pool, req, res, url), { log, what: 'request', fields: { path: url.pathname } });
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => handleUpgrade(pool, authorized, log, req, socket, head));

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, resolve);
    });
  } catch (error) {
    await pool.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  pool.addInternalPort(port);
  log.info(
    {
      host: config.host,
      port,
      capacity: config.capacity,
      capacityFrom: config.capacityFrom,
      auth: 'token',
      tokenFrom: config.tokenFrom,
      isolation: pool.isolation?.level,
    },
    'pool listening',
  );

  return {
    pool,
    server,
    port,
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      await pool.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

/** A WebSocket connect: refused before the upgrade (token, path, handshake, admission), else one fresh browser for it. */
function handleUpgrade(
  pool: BrowserPool,
  authorized: (req: IncomingMessage, url: URL) => boolean,
  log: Logger,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): void {
  socket.on('error', () => {});
  const url = new URL(req.url ?? '/', 'http://pool');
  if (!authorized(req, url)) return refuse(socket, 401, 'unauthorized', { 'WWW-Authenticate': 'Bearer' });
  if (!WS_PATH.test(url.pathname)) return refuse(socket, 404, 'not found: connect to / or /devtools/browser');
  const invalid = invalidUpgrade(req);
  if (invalid) return refuse(socket, 400, invalid);
  const admission = pool.admit(url.searchParams.get('prepare'));
  if ('refused' in admission) {
    log.info({ status: admission.refused.status, reason: admission.refused.message }, 'connection refused');
    // A client can tell "full, try later or elsewhere" from "broken" without reading the body.
    return refuse(socket, admission.refused.status, admission.refused.message, admission.refused.full ? { 'X-Pool-Full': '1' } : {});
  }
  pool.run(admission, req, socket, head);
}

async function handleRequest(pool: BrowserPool, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const route = `${req.method} ${url.pathname.replace(/\/$/, '') || '/'}`;
  if (route === 'GET /pool/status') return json(res, 200, pool.status());

  if (route === 'GET /pool/sessions') {
    const sessions = [...pool.sessions.values()].map((s) => ({ id: s.id, state: s.state, pid: s.pid ?? null, startedAt: s.startedAt.toISOString() }));
    return json(res, 200, { sessions });
  }

  if (route === 'GET /json/version') {
    if (!pool.chromeVersion) return text(res, 503, 'pool calibrating');
    // Echo a query token only when the client authenticated that way: it will need it again.
    const token = req.headers.authorization ? null : url.searchParams.get('token');
    const wsUrl = `ws://${req.headers.host ?? `${pool.config.host}:${pool.config.port}`}/devtools/browser${token ? `?token=${encodeURIComponent(token)}` : ''}`;
    return json(res, 200, { ...pool.chromeVersion, webSocketDebuggerUrl: wsUrl });
  }

  if (route === 'POST /pool/prepare') return prepare(pool, req, res);

  const filesMatch = SESSION_FILES_PATH.exec(url.pathname);
  if (filesMatch && (req.method === 'GET' || req.method === 'DELETE')) {
    const [, id, kind, index] = filesMatch as unknown as [string, string, 'indexeddb' | 'downloads', string | undefined];
    // Only the session's own client has its key (the 101's X-Pool-Snapshot-Key): holding the pool
    // token and a session id from /pool/sessions is not enough to read another tenant's files.
    const key = pool.snapshotKey(id);
    if (key === undefined) return text(res, 404, 'unknown session or snapshot expired');
    if (!sameSecret(req.headers['x-pool-snapshot-key'], key)) return text(res, 403, 'send the X-Pool-Snapshot-Key this session was opened with');
    if (kind === 'downloads') return downloads(pool, req, res, id, index);
    if (index !== undefined) return text(res, 404, 'not found');
    if (req.method === 'DELETE')
      return pool.snapshots.delete(id) ? json(res, 200, { id, deleted: true }) : text(res, 404, 'unknown session or snapshot expired');
    const stored = await pool.snapshotOf(id, SNAPSHOT_WAIT_MS);
    if (stored === 'running') return text(res, 409, 'session still running: close its WebSocket first');
    if (!stored) return text(res, 404, 'unknown session or snapshot expired');
    const { snapshot } = stored;
    if ('error' in snapshot) return text(res, snapshot.status, snapshot.error);
    res.writeHead(200, {
      'content-type': 'application/x-tar',
      'content-length': snapshot.archive.length,
      'x-indexeddb-files': String(snapshot.files),
      'cache-control': 'no-store',
    });
    return void res.end(snapshot.archive);
  }

  if (WS_PATH.test(url.pathname)) return text(res, 426, 'connect with a WebSocket (CDP); see /pool/status', { upgrade: 'websocket' });
  text(res, 404, 'not found');
}

/** A finished session's downloads: the list, one file by its index, or DELETE to free them. */
async function downloads(pool: BrowserPool, req: IncomingMessage, res: ServerResponse, id: string, index: string | undefined): Promise<void> {
  if (req.method === 'DELETE') {
    const freed = index === undefined ? pool.downloads.take(id) : undefined;
    if (!freed) return text(res, 404, 'no downloads kept for this session');
    await discardDownloads(freed);
    return json(res, 200, { id, deleted: true });
  }
  const kept = await pool.downloadsOf(id, SNAPSHOT_WAIT_MS);
  if (kept === 'running') return text(res, 409, 'session still running: close its WebSocket first');
  if (index === undefined) return json(res, 200, { files: kept.files.map(({ name, size }, i) => ({ index: i, name, size })) });
  const file = 'dir' in kept ? kept.files[Number(index)] : undefined;
  if (!file || !('dir' in kept)) return text(res, 404, 'no such download');
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.size, 'cache-control': 'no-store' });
  await pipeline(createReadStream(path.join(kept.dir, file.file)), res);
}

async function prepare(pool: BrowserPool, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { maxArchiveBytes, maxArchiveEntries } = pool.config;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-tar' && type !== 'application/octet-stream') return text(res, 415, 'send the archive as application/x-tar');
  if (Number(req.headers['content-length'] ?? 0) > maxArchiveBytes) {
    discardBody(req);
    return tooLarge(res, maxArchiveBytes);
  }
  if (pool.prepared.size >= pool.maxPrepared)
    return text(res, 429, 'too many prepared archives waiting; connect with the ones you have', { 'retry-after': '5' });
  const archive = await readBody(req, { limit: maxArchiveBytes });
  if (archive === null) return tooLarge(res, maxArchiveBytes);
  try {
    const entries = unpack(archive, ARCHIVE_ROOTS, { maxBytes: maxArchiveBytes, maxEntries: maxArchiveEntries });
    const prepareId = pool.prepare(entries);
    json(res, 201, {
      prepareId,
      expiresAt: new Date(Date.now() + pool.config.archiveTtlMs).toISOString(),
      files: entries.filter((e) => e.type === 'file').length,
    });
  } catch (error) {
    if (error instanceof ArchiveTooLargeError) return tooLarge(res, maxArchiveBytes);
    if (error instanceof ArchiveError) return text(res, 400, `invalid archive: ${error.message}`);
    throw error;
  }
}

/** The 413, with the connection kept: the rest of the body is read and dropped (proxy/http/body.ts). */
function tooLarge(res: ServerResponse, max: number): void {
  text(res, 413, `archive over the ${max / 1024 / 1024} MB profile limit`);
}
