// The page scripts in a real Chromium, driven the way the proxy drives them: a helper page whose
// blank document is served by Fetch interception (no network, any origin), Runtime.evaluate.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { launchChromium, type Chromium } from '../../../e2e/support/chromium';
import { readOriginExpression, writeOriginExpression, type OriginStorage, type WriteCounts } from './page-scripts';

interface Event {
  method: string;
  params: any;
  sessionId?: string;
}

/** A raw CDP client on the browser endpoint (flattened sessions). */
class Cdp {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Set<(event: Event) => void>();
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.id === undefined) return this.listeners.forEach((listener) => listener(message));
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result);
    });
  }
  static async connect(url: string): Promise<Cdp> {
    const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return new Cdp(ws);
  }
  send(method: string, params: object = {}, sessionId?: string): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }
  on(listener: (event: Event) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  next(match: (event: Event) => boolean): Promise<Event> {
    return new Promise((resolve) => {
      const off = this.on((event) => {
        if (match(event)) {
          off();
          resolve(event);
        }
      });
    });
  }
  close() {
    this.ws.close();
  }
}

let browser: Chromium;
let cdp: Cdp;
before(async () => {
  browser = await launchChromium();
  cdp = await Cdp.connect(browser.wsUrl);
});
after(async () => {
  cdp?.close();
  await browser?.stop();
});

const BLANK = Buffer.from('<html></html>').toString('base64');

/** A new tab on `origin` showing the blank document; evaluate() throws the page's exception. */
async function helperPage(origin: string) {
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  const stopServing = cdp.on((event) => {
    if (event.method !== 'Fetch.requestPaused' || event.sessionId !== sessionId) return;
    void cdp
      .send(
        'Fetch.fulfillRequest',
        { requestId: event.params.requestId, responseCode: 200, responseHeaders: [{ name: 'Content-Type', value: 'text/html' }], body: BLANK },
        sessionId,
      )
      .catch(() => {});
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*' }] }, sessionId);
  await cdp.send('Page.enable', {}, sessionId);
  const loaded = cdp.next((event) => event.method === 'Page.loadEventFired' && event.sessionId === sessionId);
  const navigation = await cdp.send('Page.navigate', { url: `${origin}/` }, sessionId);
  assert.equal(navigation.errorText, undefined);
  await loaded;
  return {
    async evaluate<T>(expression: string): Promise<T> {
      const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
      if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
      return result.value as T;
    },
    async close() {
      stopServing();
      await cdp.send('Target.closeTarget', { targetId });
    },
  };
}

/** Writes in one page, reads in a new one (both closed). */
async function writeThenRead(origin: string, state: OriginStorage): Promise<{ counts: WriteCounts; read: OriginStorage }> {
  const writer = await helperPage(origin);
  const counts = await writer.evaluate<WriteCounts>(writeOriginExpression(state));
  await writer.close();
  const reader = await helperPage(origin);
  const read = await reader.evaluate<OriginStorage>(readOriginExpression({ indexedDB: true }));
  await reader.close();
  return { counts, read };
}

/** Runs `body` (page JavaScript with `open(name)` and `req(request)` in scope) and returns its value. */
const inPage = (body: string) => `(async () => {
  const req = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
  const open = (name) => req(indexedDB.open(name));
  ${body}
})()`;

const floats = Buffer.from(new Float64Array([1.5, -2]).buffer).toString('base64');

// Records in key order, stores and databases by name: the order a read gives them back in.
const state: OriginStorage = {
  localStorage: { theme: 'dark', 'user:1': '{"name":"Ada"}', empty: '', 'ünïcødé ✓': 'värde' },
  indexedDB: [
    {
      name: 'app',
      version: 3,
      stores: [
        {
          name: 'users',
          autoIncrement: false,
          keyPath: 'id',
          indexes: [
            { name: 'by-email', keyPath: 'email', multiEntry: false, unique: true },
            { name: 'by-tag', keyPath: 'tags', multiEntry: true, unique: false },
          ],
          records: [
            { value: { id: 1, email: 'ada@example.com', tags: ['admin', 'dev'], profile: { age: 36, address: { city: 'London' } } } },
            {
              valueEncoded: {
                o: [
                  { k: 'id', v: 2 },
                  { k: 'email', v: 'bob@example.com' },
                  { k: 'tags', v: { a: ['dev'], id: 2 } },
                  { k: 'joined', v: { d: '2024-05-01T10:00:00.000Z' } },
                  { k: 'score', v: { v: 'NaN' } },
                  { k: 'nickname', v: { v: 'undefined' } },
                  { k: 'balance', v: { bi: '12345678901234567890' } },
                  { k: 'avatar', v: { ta: { b: 'AQID/w==', k: 'ui8' } } },
                  {
                    k: 'history',
                    v: {
                      a: [
                        {
                          o: [
                            { k: 'at', v: { d: '2024-05-02T00:00:00.000Z' } },
                            { k: 'delta', v: { v: '-0' } },
                            { k: 'limits', v: { a: [{ v: 'Infinity' }, { v: '-Infinity' }, { v: 'null' }], id: 5 } },
                          ],
                          id: 4,
                        },
                      ],
                      id: 3,
                    },
                  },
                  { k: 'self', v: { ref: 1 } },
                ],
                id: 1,
              },
            },
          ],
        },
      ],
    },
    {
      name: 'cache',
      version: 1,
      stores: [
        {
          name: 'entries',
          autoIncrement: true,
          indexes: [],
          records: [
            { key: 1, value: 'first' },
            { key: 2, valueEncoded: { d: '2020-01-01T00:00:00.000Z' } },
            {
              key: 5,
              valueEncoded: {
                o: [
                  { k: 'pattern', v: { r: { p: '^a+$', f: 'gi' } } },
                  { k: 'raw', v: { ab: { b: 'AAEC' } } },
                  { k: 'floats', v: { ta: { b: floats, k: 'f64' } } },
                  {
                    k: 'lookup',
                    v: {
                      m: [
                        { k: 'x', v: 1 },
                        { k: { d: '2020-01-01T00:00:00.000Z' }, v: { s: ['a', 'b'], id: 3 } },
                      ],
                      id: 2,
                    },
                  },
                ],
                id: 1,
              },
            },
            { key: 6, valueEncoded: { v: 'undefined' } },
          ],
        },
        {
          name: 'kv',
          autoIncrement: false,
          indexes: [],
          records: [
            { key: 10, value: { plain: true } },
            { keyEncoded: { d: '2021-06-01T00:00:00.000Z' }, value: 'dated' },
            { key: 'name', value: 'Ada' },
            { keyEncoded: { ab: { b: 'AQI=' } }, value: 'binary key' },
            { key: [1, 'x'], value: ['a', 'b'] },
          ],
        },
      ],
    },
  ],
};

test('an origin with nothing stored reads as empty', async () => {
  const page = await helperPage('http://empty.test');
  assert.deepEqual(await page.evaluate(readOriginExpression({ indexedDB: true })), { localStorage: {}, indexedDB: [] });
  assert.deepEqual(await page.evaluate(readOriginExpression({ indexedDB: false })), { localStorage: {} });
  await page.close();
});

test('a written state reads back the same in a new page, its values of their own types', async () => {
  const { counts, read } = await writeThenRead('http://app.test', state);
  assert.deepEqual(counts, { localStorage: 4, records: 11 });
  assert.deepEqual(read, state);

  const page = await helperPage('http://app.test');
  const seen = await page.evaluate(
    inPage(`
    const app = await open('app');
    const users = app.transaction('users').objectStore('users');
    const bob = await req(users.get(2));
    const byEmail = await req(users.index('by-email').get('bob@example.com'));
    const devs = await req(users.index('by-tag').getAllKeys('dev'));
    const cache = await open('cache');
    const five = await req(cache.transaction('entries').objectStore('entries').get(5));
    const next = await req(cache.transaction('entries', 'readwrite').objectStore('entries').add('next'));
    app.close(); cache.close();
    return {
      joined: bob.joined instanceof Date && bob.joined.toISOString(), score: Number.isNaN(bob.score), nickname: 'nickname' in bob && bob.nickname === undefined,
      balance: bob.balance === 12345678901234567890n, avatar: bob.avatar instanceof Uint8Array && Array.from(bob.avatar),
      delta: Object.is(bob.history[0].delta, -0), limits: bob.history[0].limits.map(String), circular: bob.self === bob,
      byEmail: byEmail.id, devs, pattern: five.pattern instanceof RegExp && five.pattern.flags, raw: five.raw instanceof ArrayBuffer && five.raw.byteLength,
      floats: five.floats instanceof Float64Array && Array.from(five.floats), set: five.lookup.get(Array.from(five.lookup.keys())[1]) instanceof Set, next,
    };
  `),
  );
  assert.deepEqual(seen, {
    joined: '2024-05-01T10:00:00.000Z',
    score: true,
    nickname: true,
    balance: true,
    avatar: [1, 2, 3, 255],
    delta: true,
    limits: ['Infinity', '-Infinity', 'null'],
    circular: true,
    byEmail: 2,
    devs: [1, 2],
    pattern: 'gi',
    raw: 3,
    floats: [1.5, -2],
    set: true,
    next: 7, // the key generator went past the highest explicit key
  });
  await page.close();
});

test('writing replaces localStorage and the databases it names', async () => {
  await writeThenRead('http://replace.test', {
    localStorage: { old: '1' },
    indexedDB: [{ name: 'db', version: 5, stores: [{ name: 'a', autoIncrement: true, indexes: [], records: [{ key: 1, value: 'old' }] }] }],
  });
  const next: OriginStorage = {
    localStorage: { new: '2' },
    indexedDB: [{ name: 'db', version: 1, stores: [{ name: 'b', autoIncrement: false, indexes: [], records: [{ key: 'k', value: 'new' }] }] }],
  };
  const { read } = await writeThenRead('http://replace.test', next);
  assert.deepEqual(read, next, 'deleted first, so even a lower version is written');
  // Without `indexedDB` the databases are left as they are.
  const { counts, read: kept } = await writeThenRead('http://replace.test', { localStorage: {} });
  assert.deepEqual(counts, { localStorage: 0, records: 0 });
  assert.deepEqual(kept, { localStorage: {}, indexedDB: next.indexedDB });
});

test('a state fragment in Playwright’s storageState format imports', async () => {
  // As Playwright 1.5x writes it: key paths as keyPath/keyPathArray, values through its serializer.
  const fragment: OriginStorage = {
    localStorage: { token: 'abc' },
    indexedDB: [
      {
        name: 'pw',
        version: 2,
        stores: [
          {
            name: 'notes',
            autoIncrement: false,
            keyPathArray: ['owner', 'id'],
            indexes: [{ name: 'by-owner', keyPath: 'owner', multiEntry: false, unique: false }],
            records: [
              { value: { owner: 'ada', id: 1, text: 'plain' } },
              {
                valueEncoded: {
                  o: [
                    { k: 'owner', v: 'ada' },
                    { k: 'id', v: 2 },
                    { k: 'at', v: { d: '2025-01-02T03:04:05.000Z' } },
                    { k: 'labels', v: { s: ['x'], id: 2 } },
                    { k: 'gone', v: { v: 'undefined' } },
                  ],
                  id: 1,
                },
              },
            ],
          },
        ],
      },
    ],
  };
  const { counts, read } = await writeThenRead('http://pw-literal.test', fragment);
  assert.deepEqual(counts, { localStorage: 1, records: 2 });
  assert.deepEqual(read, fragment);
  const page = await helperPage('http://pw-literal.test');
  const note = await page.evaluate(
    inPage(`
    const db = await open('pw');
    const note = await req(db.transaction('notes').objectStore('notes').get(['ada', 2]));
    db.close();
    return { at: note.at instanceof Date && note.at.getTime(), labels: note.labels instanceof Set && [...note.labels], gone: 'gone' in note };
  `),
  );
  assert.deepEqual(note, { at: Date.UTC(2025, 0, 2, 3, 4, 5), labels: ['x'], gone: true });
  await page.close();
});

test('reading gives up above the size limit, binary data before it is encoded', async () => {
  const bytes = Buffer.alloc(6000, 7).toString('base64');
  const big: OriginStorage = {
    localStorage: { filler: 'y'.repeat(1000) },
    indexedDB: [
      {
        name: 'big',
        version: 1,
        stores: [
          {
            name: 's',
            autoIncrement: false,
            indexes: [],
            records: [
              { key: 1, value: 'x'.repeat(3000) },
              { key: 2, valueEncoded: { ta: { b: bytes, k: 'ui8' } } },
            ],
          },
        ],
      },
    ],
  };
  await writeThenRead('http://big.test', big);
  const page = await helperPage('http://big.test');
  const tooLarge = (limit: number) => new RegExp(`storage of http://big\\.test is over ${limit} bytes serialized`);
  await assert.rejects(page.evaluate(readOriginExpression({ indexedDB: false, maxBytes: 900 })), tooLarge(900));
  await assert.rejects(page.evaluate(readOriginExpression({ indexedDB: true, maxBytes: 3500 })), tooLarge(3500));
  await assert.rejects(page.evaluate(readOriginExpression({ indexedDB: true, maxBytes: 8000 })), tooLarge(8000)); // the 8000 base64 characters
  assert.deepEqual(await page.evaluate(readOriginExpression({ indexedDB: true, maxBytes: 20_000 })), big);
  await page.close();
});

test('a state that cannot be decoded changes nothing; a record the browser refuses leaves localStorage alone', async () => {
  await writeThenRead('http://bad.test', { localStorage: { keep: 'me' } });
  const page = await helperPage('http://bad.test');
  const undecodable = {
    localStorage: {},
    indexedDB: [{ name: 'x', version: 1, stores: [{ name: 's', autoIncrement: true, indexes: [], records: [{ valueEncoded: { bogus: 1 } }] }] }],
  };
  await assert.rejects(page.evaluate(writeOriginExpression(undecodable)), /IndexedDB "x" store "s": record 0: not an encoded value/);
  const duplicate = {
    localStorage: {},
    indexedDB: [
      {
        name: 'y',
        version: 1,
        stores: [
          {
            name: 's',
            autoIncrement: false,
            indexes: [],
            records: [
              { key: 1, value: 'a' },
              { key: 1, value: 'b' },
            ],
          },
        ],
      },
    ],
  };
  await assert.rejects(page.evaluate(writeOriginExpression(duplicate)), /IndexedDB "y" store "s": record 1: /);
  assert.deepEqual(await page.evaluate(readOriginExpression({ indexedDB: true })), { localStorage: { keep: 'me' }, indexedDB: [] });
  await page.close();
});

test('a value that cannot be saved is named in the error', async () => {
  const page = await helperPage('http://blob.test');
  await page.evaluate(
    inPage(`
    const request = indexedDB.open('files', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('f');
    const db = await req(request);
    const tx = db.transaction('f', 'readwrite');
    tx.objectStore('f').put({ name: 'a.txt', body: new Blob(['hi']) }, 'k');
    await new Promise((resolve) => { tx.oncomplete = resolve; });
    db.close();
  `),
  );
  await assert.rejects(page.evaluate(readOriginExpression({ indexedDB: true })), /IndexedDB "files" store "f": a Blob cannot be saved/);
  await page.close();
});
