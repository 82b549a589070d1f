// Downloads on the pool over real sockets to a sandboxed Chromium: whatever folder the client names
// (a path on its own machine, or one that would be the host's), the browser saves into the
// session's own folder under the site's name; when the session ends the pool keeps the finished
// files for the holder of the session's key, who lists them, reads each byte for byte, and frees them.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type WebSocket from 'ws';
import { collectDownloads } from '../sessions/collect-downloads';
import { auth, openSocket, startTestPool, type OpenSocket, type TestPool } from './testing';

const REPORT = randomBytes(300_000);
const NOTES = Buffer.from('name,value\nα,1\n');

let pool: TestPool;
let site: http.Server;
let origin: string;
before(async () => {
  site = http.createServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Files</title><p>files</p>');
    const [body, name] = req.url === '/report' ? [REPORT, 'report.bin'] : [NOTES, 'notes.csv'];
    res
      .writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length, 'content-disposition': `attachment; filename="${name}"` })
      .end(body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  pool = await startTestPool({ capacity: 2 });
});
after(async () => {
  await pool?.stop();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

/** A pool session whose browser downloads these paths of the site into `clientFolder` (as the client names it), then ends. */
async function downloadIn(clientFolder: string, files: string[]): Promise<{ socket: OpenSocket; names: string[] }> {
  const socket = await openSocket(pool.ws, auth);
  const cdp = browserCdp(socket.ws);
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allowAndName', downloadPath: clientFolder, eventsEnabled: true });
  const sessionId = await pageOfTheSite(cdp);
  const names: string[] = [];
  for (const file of files) {
    const began = cdp.event('Browser.downloadWillBegin');
    const done = cdp.event('Browser.downloadProgress', (p) => p.state === 'completed' || p.state === 'canceled');
    await navigatedToDownload(cdp, `${origin}${file}`, sessionId);
    names.push((await began).suggestedFilename);
    assert.equal((await done).state, 'completed', `${file} completed in the browser`);
  }
  socket.ws.close();
  await socket.closed;
  return { socket, names };
}

// Each test is bounded (a download event that never comes fails its test, not the whole file after 15 minutes).
const BOUNDED = { timeout: 120_000 };

test(
  "a download goes to the session's own folder whatever path the client names, under the site's name made unique; the key holder lists, reads and frees the files",
  BOUNDED,
  async () => {
    const clientFolder = `/root/not-here-${randomBytes(4).toString('hex')}`;
    const { socket, names } = await downloadIn(clientFolder, ['/report', '/notes', '/notes']);
    assert.deepEqual(names, ['report.bin', 'notes.csv', 'notes.csv']);

    const key = { 'x-pool-snapshot-key': socket.snapshotKey };
    const base = `/pool/sessions/${socket.sessionId}/downloads`;
    const listed = await pool.get(base, { headers: key });
    assert.equal(listed.status, 200);
    const { files } = (await listed.json()) as { files: { index: number; name: string; size: number }[] };
    assert.deepEqual(files, [
      { index: 0, name: 'report.bin', size: REPORT.length },
      { index: 1, name: 'notes.csv', size: NOTES.length },
      { index: 2, name: 'notes (1).csv', size: NOTES.length },
    ]);
    assert.ok(Buffer.from(await (await pool.get(`${base}/0`, { headers: key })).arrayBuffer()).equals(REPORT));
    assert.ok(Buffer.from(await (await pool.get(`${base}/2`, { headers: key })).arrayBuffer()).equals(NOTES));
    assert.equal((await pool.get(`${base}/3`, { headers: key })).status, 404);
    assert.equal(existsSync(clientFolder), false, 'nothing was written where the client asked');

    // The pool token alone, or another key, reads nothing.
    assert.equal((await pool.get(base)).status, 403);
    assert.equal((await pool.get(`${base}/0`, { headers: { 'x-pool-snapshot-key': 'x'.repeat(43) } })).status, 403);

    const kept = path.join(pool.pool.downloads.get(socket.sessionId)!.dir);
    assert.equal((await pool.get(base, { method: 'DELETE', headers: key })).status, 200);
    assert.equal(existsSync(kept), false, 'freed files leave the disk');
    assert.deepEqual(await (await pool.get(base, { headers: key })).json(), { files: [] });
  },
);

test('a session that downloaded nothing has an empty list; Page.setDownloadBehavior is pointed at the folder too', BOUNDED, async () => {
  const empty = await openSocket(pool.ws, auth);
  empty.ws.close();
  await empty.closed;
  assert.deepEqual(await (await pool.get(`/pool/sessions/${empty.sessionId}/downloads`, { headers: { 'x-pool-snapshot-key': empty.snapshotKey } })).json(), {
    files: [],
  });

  const socket = await openSocket(pool.ws, auth);
  const cdp = browserCdp(socket.ws);
  const sessionId = await pageOfTheSite(cdp);
  await cdp.send('Page.setDownloadBehavior', { behavior: 'allow', downloadPath: '/etc' }, sessionId);
  const loaded = cdp.event('Page.downloadProgress', (p) => p.state === 'completed');
  await cdp.send('Page.enable', {}, sessionId);
  await navigatedToDownload(cdp, `${origin}/notes`, sessionId);
  await loaded;
  socket.ws.close();
  await socket.closed;
  const { files } = (await (
    await pool.get(`/pool/sessions/${socket.sessionId}/downloads`, { headers: { 'x-pool-snapshot-key': socket.snapshotKey } })
  ).json()) as { files: { name: string }[] };
  assert.deepEqual(
    files.map((f) => f.name),
    ['notes.csv'],
  );
});

test("the proxy's collection copies the files in the order they were saved, within the session's limits, then frees them", BOUNDED, async () => {
  const { socket } = await downloadIn('/tmp', ['/report', '/notes', '/notes']);
  const target = { url: pool.ws, headers: auth, policy: { privateNetwork: 'allow' as const, internalPorts: new Set<number>() }, release: () => {} };
  const saved: { name: string; data: Buffer }[] = [];
  const stored = await collectDownloads(
    { target, pool: { id: socket.sessionId, key: socket.snapshotKey }, sessionId: 'session-1', workspaceId: 'workspace-1' },
    { limits: { files: 5, bytes: REPORT.length + NOTES.length }, save: async (file) => saved.push(file) },
  );
  assert.equal(stored, 2);
  assert.deepEqual(
    saved.map((f) => f.name),
    ['report.bin', 'notes.csv'],
    'the third file would pass the byte limit',
  );
  assert.ok(saved[0]!.data.equals(REPORT) && saved[1]!.data.equals(NOTES));
  assert.equal(pool.pool.downloads.get(socket.sessionId), undefined, 'freed on the pool');

  const few = await downloadIn('/tmp', ['/notes', '/notes']);
  const names: string[] = [];
  await collectDownloads(
    { target, pool: { id: few.socket.sessionId, key: few.socket.snapshotKey }, sessionId: 's', workspaceId: 'w' },
    { limits: { files: 1, bytes: 1e9 }, save: async (file) => names.push(file.name) },
  );
  assert.deepEqual(names, ['notes.csv'], 'one file at most');
});

/**
 * A new tab with the site's page loaded, as a user's script downloads from a page it opened. Not
 * straight from a fresh tab's about:blank: Chromium may close a tab whose only navigation became a
 * download, and the CDP session with it (the next Page.navigate: "Session with given id not
 * found"); nor while the page still loads, which a download navigation may be lost to.
 */
async function pageOfTheSite(cdp: ReturnType<typeof browserCdp>): Promise<string> {
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  await cdp.send('Page.enable', {}, sessionId);
  const loaded = cdp.event('Page.loadEventFired');
  const opened = await cdp.send('Page.navigate', { url: `${origin}/` }, sessionId);
  assert.equal(opened.errorText, undefined, "the site's page opened");
  await loaded;
  return sessionId;
}

/** Navigates to a URL that should download: a navigation that became a page (an error page too) fails here, not as a download event that never comes. */
async function navigatedToDownload(cdp: ReturnType<typeof browserCdp>, url: string, sessionId: string): Promise<void> {
  const navigated = await cdp.send('Page.navigate', { url }, sessionId);
  assert.equal(navigated.isDownload, true, `${url} became a download, not a page (${navigated.errorText ?? 'no error'})`);
}

/** CDP on a raw pool socket: commands (browser level, or in a flattened session) and awaited events. */
function browserCdp(ws: WebSocket) {
  let nextId = 1;
  const answers = new Map<number, (message: any) => void>();
  const listeners: { method: string; match: (params: any) => boolean; resolve: (params: any) => void }[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (typeof message.id === 'number') answers.get(message.id)?.(message);
    for (const listener of listeners.filter((l) => l.method === message.method && l.match(message.params))) {
      listeners.splice(listeners.indexOf(listener), 1);
      listener.resolve(message.params);
    }
  });
  return {
    send(method: string, params: Record<string, unknown>, sessionId?: string): Promise<any> {
      const id = nextId++;
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      return new Promise((resolve, reject) => answers.set(id, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result))));
    },
    event(method: string, match: (params: any) => boolean = () => true): Promise<any> {
      return new Promise((resolve) => listeners.push({ method, match, resolve }));
    },
  };
}
