// Profiles through the connect endpoint, over real sockets: a shop served locally on two origins,
// the local pool (managed) and a standalone Chromium (generic), Playwright and raw CDP clients.
// Log in once, reconnect elsewhere and be logged in; IndexedDB on the pool; readOnly; the saving
// lock; the refusals; a Playwright storageState import used and exported back; residue on a
// shared browser; sessions ended by Browser.close and by a killed client both save.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { chromium, type Browser } from 'playwright-core';
import { call, expectOk, newUser } from '../support/api';
import { cdp, connectUrl, eventually, expectRefused, POOL_WS, refusedYet, routerKey } from '../support/connect';
import { launchChromium, type Chromium } from '../support/chromium';
import { updateRouterRow } from '../support/providers';
import { seedProfiles, seedProvider } from '../support/seed';

const SLOW = { timeout: 90_000 };

/** The shop: /login sets a session cookie (no expiry) and a token in localStorage; /account says who is logged in. */
function startShop(): Promise<{ a: string; b: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const cookie = /(?:^|; )sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (url.pathname === '/login') {
      res.setHeader('set-cookie', [`sid=user-${url.searchParams.get('user') ?? 'ada'}; Path=/; HttpOnly; SameSite=Lax`, 'theme=dark; Path=/; Max-Age=86400']);
      res.end(
        `<title>logged in</title><script>localStorage.setItem('token', 'tok-' + ${JSON.stringify(url.searchParams.get('user') ?? 'ada')}); sessionStorage.setItem('tab', 'x');</script>`,
      );
    } else if (url.pathname === '/account') {
      res.end(`<title>${cookie ? `account of ${cookie}` : 'please log in'}</title>`);
    } else res.end('<title>shop</title>');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        a: `http://127.0.0.1:${port}`,
        b: `http://localhost:${port}`,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

let shop: Awaited<ReturnType<typeof startShop>>;
let generic: Chromium;
before(async () => {
  shop = await startShop();
  generic = await launchChromium();
});
after(async () => {
  await shop?.close();
  await generic?.stop();
});

/** A user whose router has the pool (managed) and, when asked, the standalone Chromium (generic). */
async function setup(tag: string, options: { pool?: boolean; generic?: boolean } = { pool: true }) {
  const user = await newUser(tag);
  if (options.pool !== false) {
    await seedProvider(user.workspaceId, user.routerId, {
      slug: 'pool',
      url: POOL_WS,
      priority: 1,
      capabilities: { providerKind: 'managed', advertisedMaxConcurrent: null },
    });
  }
  if (options.generic) await seedProvider(user.workspaceId, user.routerId, { slug: 'generic', url: generic.wsUrl, priority: 2 });
  const key = await routerKey(user.workspaceId, user.routerId);
  return { user, key, auth: { token: user.token } };
}

async function notify(routerId: string) {
  await updateRouterRow(routerId, {});
}

async function pinGeneric(routerId: string, workspaceId: string, slug: string) {
  const { db } = await import('../../lib/db');
  const profile = await db.profile.findUniqueOrThrow({ where: { workspaceId_slug: { workspaceId, slug } } });
  await db.provider.update({ where: { routerId_slug: { routerId, slug: 'generic' } }, data: { profileId: profile.id } });
  await notify(routerId);
}

async function versions(auth: { token: string }, slug: string): Promise<{ version: number; source: string }[]> {
  const res = await call('GET', `/v1/profiles/${slug}/versions`, { auth });
  return res.status === 200 ? res.body.data.items : [];
}

async function waitForVersion(auth: { token: string }, slug: string, version: number) {
  return eventually(async () => (await versions(auth, slug)).find((v) => v.version === version) ?? null, 30_000, `profile ${slug} version ${version}`);
}

/** The file a user saves (download=1: the state itself, no envelope). */
async function exportOf(auth: { token: string }, slug: string, format: 'native' | 'playwright' = 'native') {
  const res = await call('GET', `/v1/profiles/${slug}/export?format=${format}&download=1`, { auth });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

const pageOf = async (browser: Browser) => (browser.contexts()[0] ?? (await browser.newContext())).newPage();

test('log in once on the pool; the next session on another provider is already logged in; export holds the session cookie', async () => {
  const { user, key, auth } = await setup('login', { pool: true, generic: true });
  // The generic provider is pinned to the profile later; first the pool (managed) saves it.
  const first = await chromium.connectOverCDP(connectUrl(key, { profile: 'shop', provider: 'pool' }), SLOW);
  const page = await pageOf(first);
  await page.goto(`${shop.a}/login?user=ada`);
  assert.equal(await page.title(), 'logged in');
  const other = await first.contexts()[0]!.newPage();
  await other.goto(`${shop.b}/`);
  await other.evaluate(() => localStorage.setItem('cart', '3 apples'));
  await first.close();
  await waitForVersion(auth, 'shop', 1);

  const profile = expectOk(await call('GET', '/v1/profiles/shop', { auth }));
  const native = await exportOf(auth, 'shop');
  // The capture's own account (skipped origins, its duration) says why an origin is missing.
  assert.deepEqual(profile.capturedOrigins, [shop.a, shop.b].sort(), JSON.stringify(native.meta));
  const exported = await exportOf(auth, 'shop', 'playwright');
  const sid = exported.cookies.find((c: { name: string }) => c.name === 'sid');
  assert.equal(sid.value, 'user-ada');
  assert.equal(sid.expires, -1, 'the session cookie is exported as a session cookie');
  assert.deepEqual(native.storage[shop.b].sessionStorage, {});
  assert.equal(native.storage[shop.a].localStorage.token, 'tok-ada');

  await pinGeneric(user.routerId, user.workspaceId, 'shop');
  // Pinned to shop, the generic provider takes only shop's sessions.
  await eventually(
    async () => /provider "generic" is pinned to a profile/.test((await refusedYet(connectUrl(key, { provider: 'generic' }), 400))?.body ?? ''),
    5_000,
    'the pin to reach the proxy',
  );
  assert.match((await expectRefused(connectUrl(key, { provider: 'generic', profile: 'other', readOnly: '1' }), 400)).body, /pinned to another profile/);
  const second = await chromium.connectOverCDP(connectUrl(key, { profile: 'shop', provider: 'generic' }), SLOW);
  // No helper tab of the service is left for the client to find.
  assert.ok(
    !second
      .contexts()[0]!
      .pages()
      .some((p) => p.url().startsWith(shop.a) || p.url().startsWith(shop.b)),
  );
  const page2 = await pageOf(second);
  await page2.goto(`${shop.a}/account`);
  assert.equal(await page2.title(), 'account of user-ada');
  assert.equal(await page2.evaluate(() => localStorage.getItem('token')), 'tok-ada');
  assert.equal(await page2.evaluate(() => sessionStorage.getItem('tab')), null, 'sessionStorage is never saved');
  await page2.goto(`${shop.b}/`);
  assert.equal(await page2.evaluate(() => localStorage.getItem('cart')), '3 apples');
  await page2.evaluate(() => localStorage.setItem('cart', '5 pears'));
  await second.close();
  await waitForVersion(auth, 'shop', 2);
  const after2 = await exportOf(auth, 'shop');
  assert.equal(after2.storage[shop.b].localStorage.cart, '5 pears');
});

test('IndexedDB written on the pool is there in the next pool session', async () => {
  const { key, auth } = await setup('idb');
  const first = await chromium.connectOverCDP(connectUrl(key, { profile: 'notes' }), SLOW);
  const page = await pageOf(first);
  await page.goto(`${shop.a}/`);
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('notes', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('items', { keyPath: 'id' });
        open.onsuccess = () => {
          const tx = open.result.transaction('items', 'readwrite');
          tx.objectStore('items').put({ id: 1, text: 'buy milk', at: new Date(0) });
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
  await first.close();
  await waitForVersion(auth, 'notes', 1);

  const second = await chromium.connectOverCDP(connectUrl(key, { profile: 'notes', readOnly: '1' }), SLOW);
  const page2 = await pageOf(second);
  await page2.goto(`${shop.a}/`);
  const text = await page2.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('notes');
        open.onsuccess = () => {
          const get = open.result.transaction('items').objectStore('items').get(1);
          get.onsuccess = () => resolve(get.result?.text ?? 'missing');
          get.onerror = () => reject(get.error);
        };
        open.onerror = () => reject(open.error);
      }),
  );
  assert.equal(text, 'buy milk');
  await second.close();
});

test('readOnly loads without saving; one saving session at a time (409 with Retry-After); the lock is released at the end', async () => {
  const { key, auth } = await setup('lock');
  const first = await chromium.connectOverCDP(connectUrl(key, { profile: 'solo' }), SLOW);
  const page = await pageOf(first);
  await page.goto(`${shop.a}/login?user=bo`);

  const refused = await expectRefused(connectUrl(key, { profile: 'solo' }), 409);
  assert.match(refused.body, /another session is saving to profile "solo"/);
  assert.ok(Number(refused.headers['retry-after']) >= 1);
  // readOnly sessions are unlimited, even while the profile is being saved to.
  const reader = await chromium.connectOverCDP(connectUrl(key, { profile: 'solo', readOnly: '1' }), SLOW);
  await reader.close();
  await first.close();
  await waitForVersion(auth, 'solo', 1);

  const ro = await chromium.connectOverCDP(connectUrl(key, { profile: 'solo', readOnly: '1' }), SLOW);
  const roPage = await pageOf(ro);
  await roPage.goto(`${shop.a}/account`);
  assert.equal(await roPage.title(), 'account of user-bo');
  await roPage.goto(`${shop.a}/login?user=mallory`);
  await ro.close();
  // The lock is free again and nothing new was saved by the readOnly session.
  const again = await chromium.connectOverCDP(connectUrl(key, { profile: 'solo' }), SLOW);
  const againPage = await pageOf(again);
  await againPage.goto(`${shop.a}/account`);
  assert.equal(await againPage.title(), 'account of user-bo');
  await again.close();
  await waitForVersion(auth, 'solo', 2);
  assert.equal((await versions(auth, 'solo')).length, 2);
});

test('refusals: 400 no provider can save, 402 the 501st profile, 409 switch off, 413 over the size limit', async () => {
  const genericOnly = await setup('refuse-generic', { pool: false, generic: true });
  const noSaver = await expectRefused(connectUrl(genericOnly.key, { profile: 'x' }), 400);
  assert.match(noSaver.body, /no provider on this router can save to profile "x"/);
  const { db } = await import('../../lib/db');
  assert.equal(await db.profile.count({ where: { workspaceId: genericOnly.user.workspaceId } }), 0, 'a refused connect creates no profile');
  await expectRefused(connectUrl(genericOnly.key, { profile: 'bad slug!' }), 400);
  await expectRefused(connectUrl(genericOnly.key, { readOnly: '1' }), 400);

  const { user, key } = await setup('refuse');
  await seedProfiles(user.workspaceId, 500, { name: 'bulk' });
  const full = await expectRefused(connectUrl(key, { profile: 'one-more' }), 402);
  assert.match(full.body, /501st/);

  await db.profile.update({ where: { workspaceId_slug: { workspaceId: user.workspaceId, slug: 'bulk-1' } }, data: { sizeBytes: 11 * 1024 * 1024 } });
  const big = await expectRefused(connectUrl(key, { profile: 'bulk-1' }), 413);
  assert.match(big.body, /over the 10 MB limit/);

  await updateRouterRow(user.routerId, { profilesEnabled: false });
  // The switch reaches the proxy through NOTIFY a moment later.
  await eventually(() => refusedYet(connectUrl(key, { profile: 'bulk-2' }), 409), 5_000, 'the switch to reach the proxy');
});

test('a Playwright storageState import is used by a session and exported back equal', async () => {
  const { key, auth } = await setup('import');
  const storageState = {
    cookies: [
      { name: 'sid', value: 'user-imported', domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' as const },
      {
        name: 'pref',
        value: 'compact',
        domain: '127.0.0.1',
        path: '/',
        expires: Math.floor(Date.now() / 1000) + 86_400,
        httpOnly: false,
        secure: false,
        sameSite: 'Lax' as const,
      },
    ],
    origins: [
      { origin: shop.a, localStorage: [{ name: 'token', value: 'tok-imported' }] },
      { origin: shop.b, localStorage: [{ name: 'cart', value: '1 melon' }] },
    ],
  };
  expectOk(await call('POST', '/v1/profiles/import-playwright', { auth, body: { slug: 'imported', name: 'Imported', storageState } }), 201);
  const browser = await chromium.connectOverCDP(connectUrl(key, { profile: 'imported' }), SLOW);
  const page = await pageOf(browser);
  await page.goto(`${shop.a}/account`);
  assert.equal(await page.title(), 'account of user-imported');
  assert.equal(await page.evaluate(() => localStorage.getItem('token')), 'tok-imported');
  await page.goto(`${shop.b}/`);
  assert.equal(await page.evaluate(() => localStorage.getItem('cart')), '1 melon');
  await browser.close();
  await waitForVersion(auth, 'imported', 2);
  const exported = await exportOf(auth, 'imported', 'playwright');
  const byName = (list: { name: string }[]) => [...list].sort((x, y) => x.name.localeCompare(y.name));
  assert.deepEqual(byName(exported.cookies), byName(storageState.cookies));
  const byOrigin = (list: { origin: string }[]) => [...list].sort((x, y) => x.origin.localeCompare(y.origin));
  assert.deepEqual(byOrigin(exported.origins), byOrigin(storageState.origins));
});

test("a shared generic browser: the session cleans up after itself, and another profile's residue is refused", async () => {
  // A browser of its own: the first test's pinned session left its profile in the shared one, as it should.
  const shared = await launchChromium();
  const user = await newUser('residue');
  await seedProvider(user.workspaceId, user.routerId, { slug: 'generic', url: shared.wsUrl });
  const key = await routerKey(user.workspaceId, user.routerId);
  const auth = { token: user.token };
  try {
    await residueScenario(key, auth, shared);
  } finally {
    await shared.stop();
  }
});

async function residueScenario(key: string, auth: { token: string }, generic: Chromium) {
  expectOk(
    await call('POST', '/v1/profiles/import-playwright', {
      auth,
      body: {
        slug: 'left',
        name: 'Left',
        storageState: {
          cookies: [{ name: 'sid', value: 'user-left', domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }],
          origins: [{ origin: shop.a, localStorage: [{ name: 'token', value: 'tok-left' }] }],
        },
      },
    }),
    201,
  );
  const browser = await chromium.connectOverCDP(connectUrl(key, { profile: 'left', readOnly: '1' }), SLOW);
  const page = await pageOf(browser);
  await page.goto(`${shop.a}/account`);
  assert.equal(await page.title(), 'account of user-left');
  await page.close();
  await browser.close();
  // The session's row settles only after the plugin has finished with the browser: residue planted
  // after that cannot be removed by the clean-up (an empty cookie jar alone may come before its end).
  await eventually(
    async () => {
      const listed = expectOk(await call('GET', '/v1/sessions', { auth }));
      return listed.total > 0 && listed.items.every((s: { state: string }) => s.state !== 'active');
    },
    20_000,
    'the session to end',
  );
  // Once the session has ended, the browser holds none of it.
  const direct = new WebSocket(generic.wsUrl, { perMessageDeflate: false });
  await new Promise((r) => direct.once('open', r));
  try {
    await eventually(async () => (await cdp(direct, 'Storage.getCookies')).cookies.length === 0, 10_000, 'the shared browser to be cleared');
    // A session that never ended cleanly (a crashed proxy) leaves its marker: plant one as it would.
    await cdp(direct, 'Storage.setCookies', {
      cookies: [
        {
          name: 'browser-router-profile',
          value: 'some-other-profile',
          domain: 'profile-marker.invalid',
          path: '/',
          expires: Math.floor(Date.now() / 1000) + 3600,
        },
      ],
    });
    const planted = ((await cdp(direct, 'Storage.getCookies')).cookies as { name: string }[]).some((c) => c.name === 'browser-router-profile');
    assert.ok(planted, 'the planted marker is in the browser');
    const refused = await expectRefused(connectUrl(key, { profile: 'left', readOnly: '1' }), 409);
    assert.match(refused.body, /another profile/);
    await cdp(direct, 'Storage.clearCookies');
  } finally {
    direct.close();
  }
  const ok = await chromium.connectOverCDP(connectUrl(key, { profile: 'left', readOnly: '1' }), SLOW);
  await ok.close();
}

test('a session ended by Browser.close and one whose client was killed both save', async () => {
  const { key, auth } = await setup('ends');
  // Raw CDP, as puppeteer's browser.close() does it: Browser.close is answered after the capture.
  const ws = new WebSocket(connectUrl(key, { profile: 'closer' }), { perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  // A tab opened on the login page (a navigation right after creating a blank tab may be cut short by its first load).
  await cdp(ws, 'Target.createTarget', { url: `${shop.a}/login?user=closer` });
  await eventually(async () => ((await cdp(ws, 'Storage.getCookies')).cookies as { name: string }[]).some((c) => c.name === 'sid'), 30_000, 'the login cookie');
  assert.deepEqual(await cdp(ws, 'Browser.close'), {});
  ws.close();
  await waitForVersion(auth, 'closer', 1);
  const saved = await exportOf(auth, 'closer');
  assert.equal(saved.cookies.find((c: { name: string }) => c.name === 'sid')?.value, 'user-closer');

  // A Playwright script killed mid-session (SIGKILL: no close frame, just a reset).
  const script = `
    const { chromium } = require('playwright-core');
    (async () => {
      const browser = await chromium.connectOverCDP(${JSON.stringify(connectUrl(key, { profile: 'killed' }))}, { timeout: 90000 });
      const page = await browser.contexts()[0].newPage();
      await page.goto(${JSON.stringify(`${shop.a}/login?user=killed`)});
      console.log('ready');
      setInterval(() => {}, 1000);
    })().catch((e) => { console.error(e); process.exit(1); });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`the client exited early (${code})`)));
  });
  child.kill('SIGKILL');
  await waitForVersion(auth, 'killed', 1);
  const killed = await exportOf(auth, 'killed');
  assert.equal(killed.cookies.find((c: { name: string }) => c.name === 'sid')?.value, 'user-killed');
  assert.equal(killed.storage[shop.a].localStorage.token, 'tok-killed');
});

test('the profile plugin is invisible: Playwright and puppeteer scripts see the same browser with and without profile=', async () => {
  const { key, auth } = await setup('invisible');
  // The tab a new browser opens by itself goes through '' → chrome://newtab/ →
  // chrome://new-tab-page-third-party/ while it starts, on the browser's own timing, with or without
  // a profile: it is left out. Any other tab (a helper tab left behind: about:blank, an origin) counts.
  const own = (url: string) => !/^(|chrome:\/\/newtab\/|chrome:\/\/new-tab-page-third-party\/)$/.test(url);
  const playwrightRun = async (query: Record<string, string>) => {
    const browser = await chromium.connectOverCDP(connectUrl(key, query), SLOW);
    const context = browser.contexts()[0]!;
    const events: string[] = [];
    const seen: Record<string, unknown> = {
      contexts: browser.contexts().length,
      pagesAtStart: context
        .pages()
        .map((p) => p.url())
        .filter(own),
      events,
    };
    context.on('page', (p) => own(p.url()) && events.push(`page ${p.url()}`));
    const page = await context.newPage();
    page.on('console', (m) => events.push(`console ${m.text()}`));
    await page.goto(`${shop.a}/`);
    await page.evaluate(() => console.log('hello'));
    const session = await browser.newBrowserCDPSession();
    const { targetInfos } = await session.send('Target.getTargets');
    seen.targets = targetInfos
      .filter((t) => t.type === 'page')
      .map((t) => t.url)
      .filter(own)
      .sort();
    seen.title = await page.title();
    seen.cookies = (await context.cookies()).map((c) => c.name);
    await browser.close();
    return seen;
  };
  const puppeteerRun = async (query: Record<string, string>) => {
    const { default: puppeteer } = await import('puppeteer-core');
    const browser = await puppeteer.connect({ browserWSEndpoint: connectUrl(key, query), protocolTimeout: 90_000 });
    const seen: Record<string, unknown> = { pagesAtStart: (await browser.pages()).map((p) => p.url()).filter(own) };
    const page = await browser.newPage();
    await page.goto(`${shop.a}/`);
    seen.title = await page.title();
    seen.targets = browser
      .targets()
      .filter((t) => t.type() === 'page')
      .map((t) => t.url())
      .filter(own)
      .sort();
    // puppeteer's close() sends Browser.close: held for the capture, then answered.
    await browser.close();
    return seen;
  };
  assert.deepEqual(await playwrightRun({ profile: 'invisible' }), await playwrightRun({}));
  assert.deepEqual(await puppeteerRun({ profile: 'invisible-p' }), await puppeteerRun({}));
  await waitForVersion(auth, 'invisible', 1);
  await waitForVersion(auth, 'invisible-p', 1);
});

test("a browser that crashes mid-session keeps the last good version and frees the lock; a crashed proxy's lock lapses", async () => {
  const { user, key, auth } = await setup('crash');
  expectOk(
    await call('POST', '/v1/profiles/import-playwright', {
      auth,
      body: {
        slug: 'crashy',
        name: 'Crashy',
        storageState: {
          cookies: [{ name: 'sid', value: 'user-kept', domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }],
          origins: [],
        },
      },
    }),
    201,
  );
  const ws = new WebSocket(connectUrl(key, { profile: 'crashy' }), { perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  ws.send(JSON.stringify({ id: 1, method: 'Browser.crash' }));
  assert.equal(await closed, 1011);
  // The lock is free again (a new saving session starts), and nothing replaced version 1.
  const again = await chromium.connectOverCDP(connectUrl(key, { profile: 'crashy', readOnly: '1' }), SLOW);
  const page = await pageOf(again);
  await page.goto(`${shop.a}/account`);
  assert.equal(await page.title(), 'account of user-kept');
  await again.close();
  assert.deepEqual(
    (await versions(auth, 'crashy')).map((v) => v.version),
    [1],
  );
  const saver = await eventually(
    async () => {
      const opened = await (await import('../support/connect')).open(connectUrl(key, { profile: 'crashy' }));
      return 'ws' in opened ? opened : null;
    },
    10_000,
    'the lock to be released',
  );
  (saver as { ws: WebSocket }).ws.terminate();

  // A lock whose proxy died is never renewed and lapses by itself.
  const { db } = await import('../../lib/db');
  const { acquireLock } = await import('../../lib/profiles/store');
  await eventually(
    async () => (await db.profile.findUniqueOrThrow({ where: { workspaceId_slug: { workspaceId: user.workspaceId, slug: 'crashy' } } })).lockSessionId === null,
    30_000,
    'the terminated session to end',
  );
  const profile = await db.profile.findUniqueOrThrow({ where: { workspaceId_slug: { workspaceId: user.workspaceId, slug: 'crashy' } } });
  assert.deepEqual(await acquireLock(profile.id, 'ses_of_a_dead_proxy', 1_500), { ok: true });
  const refused = await expectRefused(connectUrl(key, { profile: 'crashy' }), 409);
  assert.ok(Number(refused.headers['retry-after']) >= 1 && Number(refused.headers['retry-after']) <= 2);
  await eventually(
    async () => {
      const opened = await (await import('../support/connect')).open(connectUrl(key, { profile: 'crashy' }));
      if ('ws' in opened) (opened as { ws: WebSocket }).ws.terminate();
      return 'ws' in opened;
    },
    10_000,
    "the dead proxy's lock to lapse",
  );
});
