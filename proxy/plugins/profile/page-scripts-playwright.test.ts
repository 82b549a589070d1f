// Our captures and Playwright's storageState are the same thing: what Playwright saves imports and
// reads back identically, and what we read loads into Playwright's `storageState` option.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchChromium, type Chromium } from '../../../e2e/support/chromium';
import type { IndexedDbDatabase } from '../../../lib/profiles/state';
import { readOriginExpression, writeOriginExpression, type OriginStorage } from './page-scripts';

let chromiumProcess: Chromium;
let browser: Browser;
before(async () => {
  chromiumProcess = await launchChromium();
  browser = await chromium.connectOverCDP(chromiumProcess.wsUrl);
});
after(async () => {
  await browser?.close();
  await chromiumProcess?.stop();
});

/** A page on `origin` in a context of its own, the document a blank one served by routing. */
async function pageOn(context: BrowserContext, origin: string): Promise<Page> {
  await context.route('**/*', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<html></html>' }));
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  return page;
}

// Page code as text (a function passed under tsx would carry `__name`).
const fill = `(async () => {
  localStorage.setItem('token', 'abc');
  const request = indexedDB.open('shop', 4);
  request.onupgradeneeded = () => {
    const db = request.result;
    db.createObjectStore('items', { keyPath: 'sku' }).createIndex('by-tag', 'tags', { multiEntry: true });
    db.createObjectStore('log', { autoIncrement: true });
  };
  const db = await new Promise((resolve, reject) => { request.onsuccess = () => resolve(request.result); request.onerror = () => reject(request.error); });
  const tx = db.transaction(['items', 'log'], 'readwrite');
  tx.objectStore('items').put({ sku: 'a1', tags: ['x', 'y'], price: 9.5 });
  tx.objectStore('items').put({ sku: 'b2', added: new Date(Date.UTC(2024, 0, 1)), meta: new Map([['k', new Set([1n])]]), bytes: new Uint16Array([1, 65535]), gone: undefined, nan: NaN });
  tx.objectStore('log').put('plain entry');
  tx.objectStore('log').put({ when: new Date(0), pattern: /x+/g, buffer: new Uint8Array([4, 5]).buffer });
  await new Promise((resolve) => { tx.oncomplete = resolve; });
  db.close();
})()`;

test('a state Playwright saves imports and reads back exactly as Playwright saved it', async () => {
  const source = await browser.newContext();
  await (await pageOn(source, 'http://pw-live.test')).evaluate(fill);
  const saved = await source.storageState({ indexedDB: true });
  await source.close();
  // Playwright's types leave `indexedDB` out of an origin; its storageState has it.
  const origin = saved.origins.find((o) => o.origin === 'http://pw-live.test') as (typeof saved.origins)[number] & { indexedDB: IndexedDbDatabase[] };
  const state: OriginStorage = { localStorage: Object.fromEntries(origin.localStorage.map((i) => [i.name, i.value])), indexedDB: origin.indexedDB };
  assert.ok(
    state.indexedDB?.[0]?.stores.some((s) => s.records.some((r) => 'valueEncoded' in r)),
    'Playwright encoded some values',
  );

  const target = await browser.newContext();
  const page = await pageOn(target, 'http://pw-live.test');
  await page.evaluate(writeOriginExpression(state));
  const fresh = await target.newPage();
  await fresh.goto('http://pw-live.test/');
  const read = await fresh.evaluate(readOriginExpression({ indexedDB: true }));
  // Playwright's objects carry `keyPath: undefined` where we leave the key out: compare as JSON.
  assert.deepEqual(read, JSON.parse(JSON.stringify(state)));
  await target.close();
});

test('what we read loads into Playwright’s storageState option with its types', async () => {
  const source = await browser.newContext();
  const page = await pageOn(source, 'http://ours.test');
  await page.evaluate(fill);
  const ours = (await page.evaluate(readOriginExpression({ indexedDB: true }))) as OriginStorage;
  await source.close();

  const origins = [
    { origin: 'http://ours.test', localStorage: Object.entries(ours.localStorage).map(([name, value]) => ({ name, value })), indexedDB: ours.indexedDB },
  ];
  const target = await browser.newContext({ storageState: { cookies: [], origins } });
  const restored = await pageOn(target, 'http://ours.test');
  const seen = await restored.evaluate(`(async () => {
    const req = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
    const db = await req(indexedDB.open('shop'));
    const b2 = await req(db.transaction('items').objectStore('items').get('b2'));
    const log = await req(db.transaction('log').objectStore('log').get(2));
    db.close();
    return {
      token: localStorage.getItem('token'), version: db.version,
      added: b2.added instanceof Date && b2.added.getTime(), big: b2.meta.get('k').has(1n), bytes: b2.bytes instanceof Uint16Array && Array.from(b2.bytes),
      gone: 'gone' in b2 && b2.gone === undefined, nan: Number.isNaN(b2.nan), pattern: log.pattern instanceof RegExp && log.pattern.source,
      buffer: log.buffer instanceof ArrayBuffer && log.buffer.byteLength,
    };
  })()`);
  assert.deepEqual(seen, {
    token: 'abc',
    version: 4,
    added: Date.UTC(2024, 0, 1),
    big: true,
    bytes: [1, 65535],
    gone: true,
    nan: true,
    pattern: 'x+',
    buffer: 2,
  });
  await target.close();
});
