// Pipeline-lane plugins (recording, traces) must be invisible: the same Playwright or puppeteer
// script, run against a browser of its own with and without a plugin, must see the same outcome
// and the same events. These are the scripts and the fresh-browser harness the plugin tests share.
import { randomUUID } from 'node:crypto';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { post } from '../../lib/billing/ledger';
import { db } from '../../lib/db';
import { newUser, type TestUser } from './api';
import { launchChromium } from './chromium';
import { connectUrl, routerKey } from './connect';
import { addProvider } from './providers';
import type { TestSite } from './test-site';

/** Waits until the animated page's tick counter (25 a second) reaches `n`: the session has lasted n × 40 ms. */
export async function ticks(page: { waitForFunction: (fn: string) => Promise<unknown> }, n: number) {
  await page.waitForFunction(`Number(document.getElementById('tick')?.textContent) >= ${n}`);
}

const pathOf = (url: string) => {
  const u = new URL(url || 'about:blank');
  return u.pathname + u.search + u.hash;
};

/** A Playwright script over pages, navigations, network, console, errors, a popup and a screenshot; returns what it saw. */
export const playwrightScript = (site: TestSite) => async (url: string) => {
  const events: string[] = [];
  const pw = await chromium.connectOverCDP(url);
  pw.on('disconnected', () => events.push('disconnected'));
  const context = pw.contexts()[0]!;
  context.on('page', (p) => events.push(`context page ${new URL(p.url() || 'about:blank').pathname}`));
  events.push(`contexts ${pw.contexts().length} pages ${context.pages().length}`);
  const page = await context.newPage();
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) events.push(`navigated ${pathOf(f.url())}`);
  });
  page.on('console', (m) => events.push(`console ${m.type()} ${m.text()}`));
  page.on('pageerror', (e) => events.push(`pageerror ${e.message}`));
  // Counted, not placed in the stream: /traced's fetches run while it loads, so where its load
  // event falls among them is the page's own race (seen once in five full runs), not ours.
  let loads = 0;
  page.on('load', () => (loads += 1));
  page.on('popup', (p) => events.push(`popup ${new URL(p.url() || 'about:blank').pathname}`));
  page.on('request', (r) => events.push(`request ${r.method()} ${pathOf(r.url())} ${r.headers()['authorization'] ?? ''}`));
  page.on('response', (r) => events.push(`response ${r.status()} ${pathOf(r.url())}`));
  page.on('requestfailed', (r) => events.push(`requestfailed ${pathOf(r.url())} ${r.failure()?.errorText}`));
  await page.goto(`${site.url}/animated?title=script`);
  await ticks(page, 25);
  await page.evaluate(() => console.log('hello from the page'));
  const title = await page.title();
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.evaluate(() => {
      window.open('/basic');
    }),
  ]);
  await popup.waitForLoadState('load');
  events.push(`popup title ${await popup.title()}`);
  await popup.close();
  const shot = await page.screenshot();
  events.push(`screenshot ${shot.subarray(0, 8).toString('hex')}`);
  await page.goto(`${site.url}/traced`);
  await page.waitForFunction(() => document.title === 'traced-done');
  events.push(
    `loads ${loads}`,
    `title ${title}`,
    `pages ${context.pages().length}`,
    `targets ${(await (await context.newCDPSession(page)).send('Target.getTargets')).targetInfos.filter((t) => t.type === 'page').length}`,
  );
  await pw.close();
  return events;
};

/** A puppeteer script over targets, the viewport, console, a screenshot and Browser.close; returns what it saw. */
export const puppeteerScript = (site: TestSite) => async (url: string) => {
  const events: string[] = [];
  const b = await puppeteer.connect({ browserWSEndpoint: url, defaultViewport: { width: 800, height: 600 } });
  b.on('targetcreated', (t) => events.push(`targetcreated ${t.type()}`));
  b.on('targetchanged', (t) => events.push(`targetchanged ${t.type()} ${new URL(t.url() || 'about:blank').pathname}`));
  b.on('targetdestroyed', (t) => events.push(`targetdestroyed ${t.type()}`));
  events.push(`pages ${(await b.pages()).length}`);
  const page = await b.newPage();
  page.on('console', (m) => events.push(`console ${m.text()}`));
  page.on('pageerror', (e) => events.push(`pageerror ${(e as Error).message}`));
  page.on('requestfailed', (r) => events.push(`requestfailed ${pathOf(r.url())}`));
  await page.goto(`${site.url}/animated?title=puppeteer`);
  await page.waitForFunction(`Number(document.getElementById('tick')?.textContent) >= 25`);
  await page.evaluate(() => console.log('from puppeteer'));
  events.push(`title ${await page.title()}`, `viewport ${await page.evaluate(() => `${innerWidth}x${innerHeight}`)}`);
  const shot = await page.screenshot({ encoding: 'binary' });
  events.push(`screenshot ${Buffer.from(shot).subarray(0, 8).toString('hex')}`);
  await page.goto(`${site.url}/traced`);
  await page.waitForFunction(() => document.title === 'traced-done');
  await page.close();
  events.push(`pages ${(await b.pages()).length}`);
  await b.close();
  return events;
};

/** Runs `script` through the proxy against a browser of its own (so that neither run sees what the other left), with the connect's `query`. */
export async function inFreshBrowser<T>(
  tag: string,
  query: Record<string, string>,
  script: (url: string) => Promise<T>,
): Promise<{ result: T; user: TestUser & { key: string } }> {
  const own = await launchChromium();
  try {
    const user = await newUser(tag);
    await addProvider(user.workspaceId, user.routerId, { slug: 'chromium', url: own.wsUrl });
    await post(db, user.workspaceId, [{ kind: 'grant', amountMillicents: 1_000_000n, cause: `grant:${randomUUID()}` }]);
    const key = await routerKey(user.workspaceId, user.routerId);
    return { result: await script(connectUrl(key, query)), user: { ...user, key } };
  } finally {
    await own.stop();
  }
}
