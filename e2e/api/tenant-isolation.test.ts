// An attacker holding one router key, on the local pool through the proxy: what can a page in
// their browser reach? Nothing of the host's files, not the pool, not the database, not the
// metadata service, not another tenant's browser (docs/security.md). The shared stack runs
// PRIVATE_NETWORK=allow, so what is refused here is refused whatever the setting says.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { newUser } from '../support/api';
import { connectUrl, routerKey } from '../support/connect';
import { addProvider } from '../support/providers';
import { startTestSite, type TestSite } from '../support/test-site';

const DATA_DIR = process.env.DATA_DIR!;
const POOL_WS = process.env.LOCAL_POOL_URL!;
const POOL_PORT = Number(new URL(POOL_WS).port);
const DB_PORT = Number(new URL(process.env.DATABASE_URL!).port);

let site: TestSite;
let attacker: Browser;
let victim: Browser;
let page: Page;

async function pooledBrowser(tag: string): Promise<Browser> {
  const user = await newUser(tag);
  await addProvider(user.workspaceId, user.routerId, { slug: 'pool', url: POOL_WS });
  // The pool starts a Chromium for the session: slow on a busy machine.
  return chromium.connectOverCDP(connectUrl(await routerKey(user.workspaceId, user.routerId)), { timeout: 90_000 });
}

before(async () => {
  site = await startTestSite();
  [attacker, victim] = await Promise.all([pooledBrowser('attacker'), pooledBrowser('victim')]);
  const victimPage = await (victim.contexts()[0] ?? (await victim.newContext())).newPage();
  await victimPage.setContent('<title>victim</title>');
  page = await (attacker.contexts()[0] ?? (await attacker.newContext())).newPage();
  await page.goto(`${site.url}/`);
});

after(async () => {
  await Promise.all([attacker?.close(), victim?.close()]);
  await site?.close();
});

/** The user-data-dirs of the pool's live sessions, as the host sees them. */
function sessionDirs(): string[] {
  const root = path.join(DATA_DIR, 'pool');
  return readdirSync(root)
    .filter((n) => n.startsWith('run-'))
    .flatMap((run) =>
      readdirSync(path.join(root, run), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => path.join(root, run, e.name)),
    );
}

/** The Playwright page of a target created over raw CDP (it appears in the default context). */
async function waitForPageOf(targetId: string, cdp: import('playwright-core').CDPSession): Promise<Page> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    for (const candidate of attacker.contexts().flatMap((c) => c.pages())) {
      const session = await candidate.context().newCDPSession(candidate);
      const { targetInfo } = await session.send('Target.getTargetInfo');
      await session.detach();
      if (targetInfo.targetId === targetId) return candidate;
    }
    if (Date.now() > deadline) throw new Error(`no page for target ${targetId}`);
    await cdp.send('Target.getTargets');
  }
}

/** Runs a page-initiated navigation; resolves with the popup's content, or with the page's refusal. */
async function pageInitiated(start: () => Promise<unknown>): Promise<string> {
  const outcome = Promise.race([
    page.waitForEvent('popup').then(async (popup) => {
      await popup.waitForLoadState().catch(() => {});
      const content = await popup.content();
      await popup.close();
      return content;
    }),
    page.waitForEvent('console', { predicate: (m) => /Not allowed to load local resource/.test(m.text()) }).then((m) => m.text()),
  ]);
  await start();
  return outcome;
}

async function navigationFails(target: Page, url: string): Promise<string> {
  const error = await target.goto(url).then(
    () => null,
    (e: Error) => e,
  );
  assert.ok(error, `${url} loaded`);
  return error.message;
}

test("file: navigations are refused: the secrets file, another session's directory, /etc/passwd", async () => {
  const dirs = sessionDirs();
  assert.ok(dirs.length >= 2, `two live sessions have directories: ${dirs.join(', ')}`);
  for (const url of [`file://${DATA_DIR}/secrets.json`, 'file:///etc/passwd', ...dirs.map((d) => `file://${d}/`)]) {
    const tab = await page.context().newPage();
    assert.match(await navigationFails(tab, url), /ERR_BLOCKED_BY_ADMINISTRATOR|ERR_FILE_NOT_FOUND|ERR_ACCESS_DENIED/, url);
    await tab.close();
  }
});

test('file: is refused however the navigation starts: CDP Target.createTarget and Page.navigate, window.open, a link', async () => {
  const secrets = `file://${DATA_DIR}/secrets.json`;
  const cdp = await attacker.newBrowserCDPSession();
  const { targetId } = await cdp.send('Target.createTarget', { url: secrets });
  const target = await waitForPageOf(targetId, cdp);
  assert.doesNotMatch(await target.content(), /encryptionKey|authSecret/);
  const tab = await page.context().newPage();
  const session = await page.context().newCDPSession(tab);
  const navigated = await session.send('Page.navigate', { url: secrets });
  assert.ok(navigated.errorText, `Page.navigate reports an error: ${JSON.stringify(navigated)}`);
  // From a web page Chromium's renderer refuses a local URL itself; a popup that did open would
  // meet the browser's policy. Either way nothing of the file is shown.
  assert.doesNotMatch(await pageInitiated(() => page.evaluate((u) => void window.open(u), secrets)), /encryptionKey|authSecret/);
  await page.setContent(`<a id="l" href="${secrets}" target="_blank">x</a>`);
  assert.doesNotMatch(await pageInitiated(() => page.click('#l')), /encryptionKey|authSecret/);
  await page.goto(`${site.url}/`);
});

test('a page cannot reach the pool, the database or the metadata service; an ordinary page can', async () => {
  // What a script in the page gets back, read from the browser's own record of the fetch (a
  // no-cors answer is opaque to the page, and Chromium strips its headers).
  const attempt = async (url: string) => {
    const answered = page.waitForResponse((r) => r.request().resourceType() === 'fetch', { timeout: 30_000 }).catch(() => null);
    const outcome = await page.evaluate(
      (u) =>
        fetch(u, { mode: 'no-cors' }).then(
          () => 'answered',
          (e: Error) => `failed: ${e.message}`,
        ),
      url,
    );
    return { outcome, status: outcome === 'answered' ? (await answered)?.status() : undefined };
  };
  // Control: the local test site is reachable (allow), so a refusal below is the policy's.
  assert.deepEqual(await attempt(`${site.url}/basic`), { outcome: 'answered', status: 200 });
  // Refused by the egress proxy with its 403, never an answer of the target; the same address
  // opened in a tab shows the policy's page and header, naming the rule.
  for (const url of [
    `http://127.0.0.1:${POOL_PORT}/pool/status`,
    `http://localhost:${POOL_PORT}/pool/sessions`,
    `http://127.0.0.1:${DB_PORT}/`,
    'http://169.254.169.254/latest/meta-data/',
    `http://[::ffff:127.0.0.1]:${POOL_PORT}/pool/status`,
  ]) {
    assert.deepEqual(await attempt(url), { outcome: 'answered', status: 403 }, url);
    const tab = await page.context().newPage();
    const opened = await tab.goto(url);
    assert.equal(opened?.status(), 403, url);
    assert.match(opened?.headers()['x-egress-refused'] ?? '', /refused whatever PRIVATE_NETWORK says/, url);
    assert.match(await tab.locator('body').innerText(), /refused by this service's egress policy/, url);
    await tab.close();
  }
  const ws = await page.evaluate(
    (u) =>
      new Promise<string>((resolve) => {
        const socket = new WebSocket(u);
        socket.onopen = () => resolve('opened');
        socket.onerror = () => resolve('failed');
      }),
    `ws://127.0.0.1:${POOL_PORT}/`,
  );
  assert.equal(ws, 'failed');
});
