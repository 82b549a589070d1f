// Downloads through the proxy on the local pool, as users make them: Playwright clicks a link that
// downloads (its download event, name and success as on a local browser), puppeteer connects with a
// download folder of its own machine; when the session ends, the files are in the session's
// downloads (GET /v1/sessions/:id/downloads) byte for byte, under the site's names. On a provider
// that keeps its files (a Chromium started with --remote-debugging-port), a traced session lists
// what its browser downloaded there, by the same API.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { call, expectOk, newUser, type TestUser } from '../support/api';
import { userWithProvider } from '../support/capture';
import { launchChromium } from '../support/chromium';
import { connectUrl, eventually, POOL_WS, routerKey } from '../support/connect';

const WEB = process.env.TEST_WEB_URL ?? 'http://localhost:3000';
const PDF = randomBytes(200_000);
const CSV = Buffer.from('name,value\nα,1\n');

let site: http.Server;
let origin: string;
before(async () => {
  site = http.createServer((req, res) => {
    if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end('<a id="pdf" href="/pdf">PDF</a> <a id="csv" href="/csv">CSV</a>');
    const [body, disposition] =
      req.url === '/pdf' ? [PDF, `attachment; filename="resume.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`] : [CSV, 'attachment; filename="data.csv"'];
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length, 'content-disposition': disposition }).end(body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
after(async () => {
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

/** A user whose router routes to the local pool only. */
async function poolUser(name: string): Promise<TestUser & { key: string }> {
  const user = await newUser(name);
  expectOk(await call('POST', '/v1/providers', { auth: { token: user.token }, body: { slug: 'pool', url: POOL_WS } }), 201);
  return { ...user, key: await routerKey(user.workspaceId, user.routerId) };
}

/** The user's newest session, once it has ended and its downloads are listed (collected after the end). */
async function downloadsOf(user: TestUser, count: number) {
  return eventually(
    async () => {
      const sessions = expectOk(await call('GET', '/v1/sessions', { auth: { token: user.token } }));
      const session = sessions.items[0];
      if (!session || session.state === 'active') return null;
      const list = expectOk(await call('GET', `/v1/sessions/${session.id}/downloads`, { auth: { token: user.token } }));
      return list.items.length === count ? { session, list } : null;
    },
    60_000,
    `${count} downloads listed`,
  );
}

async function fileOf(user: TestUser, url: string): Promise<Buffer> {
  const response = await fetch(new URL(url, WEB), { headers: { authorization: `Bearer ${user.token}` } });
  assert.equal(response.status, 200);
  return Buffer.from(await response.arrayBuffer());
}

test("Playwright: a clicked download fires its event with the site's name and succeeds; after the session it is in the session's downloads", async () => {
  const user = await poolUser('dl-playwright');
  const browser = await chromium.connectOverCDP(connectUrl(user.key), { timeout: 90_000 });
  const page = await browser.contexts()[0]!.newPage();
  await page.goto(`${origin}/`);
  for (const [link, name] of [
    ['#pdf', 'résumé.pdf'],
    ['#csv', 'data.csv'],
  ]) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(link!)]);
    assert.equal(download.suggestedFilename(), name);
    assert.equal(await download.failure(), null, `${name} completed`);
  }
  await browser.close();

  const { list } = await downloadsOf(user, 2);
  assert.equal(list.total, 2);
  assert.deepEqual(
    list.items.map((d: { name: string; sizeBytes: number }) => [d.name, d.sizeBytes]),
    [
      ['résumé.pdf', PDF.length],
      ['data.csv', CSV.length],
    ],
  );
  assert.ok((await fileOf(user, list.items[0].url)).equals(PDF));
  assert.ok((await fileOf(user, list.items[1].url)).equals(CSV));
});

test("puppeteer: a download folder of the client's machine; the file is kept for the session", async () => {
  const user = await poolUser('dl-puppeteer');
  const browser = await puppeteer.connect({
    browserWSEndpoint: connectUrl(user.key),
    defaultViewport: null,
    downloadBehavior: { policy: 'allow', downloadPath: '/tmp/client-machine-folder' },
  });
  const page = await browser.newPage();
  const cdp = await page.createCDPSession();
  await cdp.send('Page.enable');
  const done = new Promise<string>((resolve) => cdp.on('Page.downloadProgress', (p) => p.state !== 'inProgress' && resolve(p.state)));
  await page.goto(`${origin}/`);
  await page.click('#csv');
  assert.equal(await done, 'completed');
  await browser.close();

  const { list } = await downloadsOf(user, 1);
  assert.deepEqual(
    list.items.map((d: { name: string }) => d.name),
    ['data.csv'],
  );
  assert.ok((await fileOf(user, list.items[0].url)).equals(CSV));
});

test('a provider that keeps its files: a traced session lists what its browser downloaded there (name, size, source), with no file here; an untraced one lists none', async () => {
  const chromium_ = await launchChromium();
  try {
    // A wallet with credit: a trace is billed per event.
    const user = await userWithProvider('dl-address', chromium_.wsUrl);
    const key = user.key;
    const browseAndDownload = async (params: Record<string, string>) => {
      const browser = await chromium.connectOverCDP(connectUrl(key, params), { timeout: 90_000 });
      const context = await browser.newContext({ acceptDownloads: true });
      const page = await context.newPage();
      await page.goto(`${origin}/`);
      for (const link of ['#pdf', '#csv']) {
        const [download] = await Promise.all([page.waitForEvent('download'), page.click(link)]);
        assert.equal(await download.failure(), null);
      }
      await context.close();
      await browser.close();
    };

    await browseAndDownload({});
    const untraced = await eventually(
      async () => {
        const session = expectOk(await call('GET', '/v1/sessions', { auth: { token: user.token } })).items[0];
        return session && session.state !== 'active' ? session : null;
      },
      60_000,
      'the untraced session ended',
    );
    assert.deepEqual(expectOk(await call('GET', `/v1/sessions/${untraced.id}/downloads`, { auth: { token: user.token } })), { items: [], total: 0 });

    await browseAndDownload({ observability: 'true' });
    const { session, list } = await downloadsOf(user, 2);
    assert.notEqual(session.id, untraced.id);
    assert.deepEqual(
      list.items.map(({ name, sizeBytes, url, keptBy, sourceUrl }: Record<string, unknown>) => ({ name, sizeBytes, url, keptBy, sourceUrl })),
      [
        { name: 'résumé.pdf', sizeBytes: PDF.length, url: null, keptBy: 'provider', sourceUrl: `${origin}/pdf` },
        { name: 'data.csv', sizeBytes: CSV.length, url: null, keptBy: 'provider', sourceUrl: `${origin}/csv` },
      ],
    );
    const file = await call('GET', `/v1/sessions/${session.id}/downloads/${list.items[0].id}`, { auth: { token: user.token } });
    assert.equal(file.status, 404);
  } finally {
    await chromium_.stop();
  }
});
