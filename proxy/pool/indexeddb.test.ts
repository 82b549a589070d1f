// IndexedDB and localStorage through the pool: snapshot at session end, prepare the next session with it. The
// browser writes its files as its own uid (sandbox.ts); the pool reads them back and hands a
// prepared archive to the next browser's uid.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { ARCHIVE_ROOTS, pack, unpack } from './tar';
import { auth, refusal, startPageServer, startTestPool, type PageServer, type TestPool } from './testing';

let pool: TestPool;
let pages: PageServer;
before(async () => {
  [pool, pages] = await Promise.all([startTestPool({ capacity: 2 }), startPageServer()]);
});
after(async () => {
  await pool.stop();
  await pages.close();
});

const writeValue = (value: string): Promise<string> =>
  new Promise<string>((resolve, reject) => {
    const open = indexedDB.open('pool-test', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('kv');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      localStorage.setItem('greeting', value);
      const tx = open.result.transaction('kv', 'readwrite');
      tx.objectStore('kv').put(value, 'greeting');
      tx.oncomplete = () => resolve('written');
    };
  });
const readValue = (_unused: string): Promise<unknown> =>
  new Promise<unknown>((resolve, reject) => {
    const open = indexedDB.open('pool-test', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('kv');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const get = open.result.transaction('kv').objectStore('kv').get('greeting');
      get.onsuccess = () => resolve([get.result ?? null, localStorage.getItem('greeting')]);
    };
  });

async function session(url: string, action: (arg: string) => Promise<unknown>, arg = ''): Promise<{ id: string; key: string; result: unknown }> {
  const browser = await chromium.connectOverCDP(url, { headers: auth });
  // Playwright does not show the 101's headers: the key is read where the pool keeps it.
  const { id, snapshotKey: key } = [...pool.pool.sessions.values()].find((s) => s.state === 'open')!;
  const page = await browser.contexts()[0]!.newPage();
  await page.goto(`${pages.origin}/`);
  const result = await page.evaluate(action, arg);
  await browser.close();
  return { id, key, result };
}

test('IndexedDB and localStorage written in one session come back in the next one through snapshot and prepare', async () => {
  const first = await session(pool.ws, writeValue, 'hello across sessions');
  assert.equal(first.result, 'written');

  // Asked right after the client left: the answer waits until the browser has exited.
  const snapshot = await pool.get(`/pool/sessions/${first.id}/indexeddb`, { headers: { 'x-pool-snapshot-key': first.key } });
  assert.equal(snapshot.status, 200);
  assert.equal(snapshot.headers.get('content-type'), 'application/x-tar');
  const archive = Buffer.from(await snapshot.arrayBuffer());
  const origin = pages.origin.replace('://', '_').replace(':', '_');
  const entries = unpack(archive, ARCHIVE_ROOTS, { maxBytes: 10e6, maxEntries: 1000 });
  assert.ok(entries.some((e) => e.path.startsWith(`IndexedDB/${origin}.indexeddb.leveldb/`)));
  assert.ok(entries.some((e) => e.type === 'file' && e.path.startsWith('Local Storage/leveldb/')));
  assert.ok(Number(snapshot.headers.get('x-indexeddb-files')) > 0);

  const prepared = await pool.get('/pool/prepare', { method: 'POST', headers: { 'content-type': 'application/x-tar' }, body: new Uint8Array(archive) });
  assert.equal(prepared.status, 201);
  const { prepareId, expiresAt } = (await prepared.json()) as { prepareId: string; expiresAt: string };
  assert.ok(Date.parse(expiresAt) > Date.now());

  const second = await session(`${pool.ws}/?prepare=${prepareId}`, readValue);
  assert.deepEqual(second.result, ['hello across sessions', 'hello across sessions']);

  // A fresh session without a prepare id starts empty, and a prepare id works once.
  const third = await session(pool.ws, readValue);
  assert.deepEqual(third.result, [null, null]);
  assert.deepEqual(await refusal(`${pool.ws}/?prepare=${prepareId}`, auth), { status: 400, body: 'unknown or expired prepare id' });
});

test('prepare refuses bad, foreign and oversize archives; unknown snapshots are 404', async () => {
  const post = (body: Buffer, type = 'application/x-tar') =>
    pool.get('/pool/prepare', { method: 'POST', headers: { 'content-type': type }, body: new Uint8Array(body) });
  assert.equal((await post(Buffer.from('not a tar'))).status, 400);
  const foreign = await post(pack([{ path: 'Cookies', type: 'file', data: Buffer.from('x') }]));
  assert.equal(foreign.status, 400);
  assert.match(await foreign.text(), /must lie under IndexedDB\/ or Local Storage\//);
  assert.equal((await post(pack([]), 'application/json')).status, 415);
  const big = await post(Buffer.alloc(10 * 1024 * 1024 + 1));
  assert.equal(big.status, 413);
  assert.match(await big.text(), /10 MB profile limit/);
  assert.equal((await post(pack([]))).status, 201);
  assert.equal((await pool.get('/pool/sessions/00000000-0000-0000-0000-000000000000/indexeddb')).status, 404);
});
