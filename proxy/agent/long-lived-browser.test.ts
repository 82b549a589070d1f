// The agent toolkit on a browser it does not own: a long-lived Chromium started with
// --remote-debugging-port and its default tab, reached as an address provider is (kind `connect`)
// and as a user's own DevTools address (http://host:port, ws://host:port). A session works in tabs
// of its own, never adopts the default tab or tabs left by others, closes what it opened (popups
// included), keeps the tab it acts on in front, and says what text an action changed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { launchChromium, type Chromium } from '../../e2e/support/chromium';
import { eventually } from '../../e2e/support/connect';
import { startTestSite, type TestSite } from '../../e2e/support/test-site';
import { browseTarget } from '../cli/devtools-endpoint';
import { act, navigate } from './actions';
import { evaluate } from './reading';
import { SessionSet } from './session-set';
import type { AgentEndpoint } from './types';

let browser: Chromium;
let site: TestSite;
before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
});
after(async () => {
  await Promise.all([browser?.stop(), site?.close()]);
});

const routed: AgentEndpoint = { kind: 'connect', connect: async () => ({ url: browser.wsUrl }) };

interface Listed {
  id: string;
  type: string;
  url: string;
}
const pages = async () => ((await (await fetch(`${browser.httpUrl}/json/list`)).json()) as Listed[]).filter((t) => t.type === 'page');

function refOf(text: string, pattern: RegExp): string {
  const line = text.split('\n').find((l) => pattern.test(l));
  assert.ok(line, `no line matching ${pattern} in:\n${text}`);
  return /^e\d+/.exec(line!)![0];
}

test('its own tabs only: the default tab and a tab left by an earlier client are never listed or driven; closing closes its tabs and popups', async () => {
  const before = await pages();
  assert.equal(before.length, 1, 'the browser opened with its default tab');
  const leftOpen = (await (await fetch(`${browser.httpUrl}/json/new?about:blank`, { method: 'PUT' })).json()) as Listed;
  const set = new SessionSet(routed);
  const session = await set.open();
  const tabs = await session.listTabs();
  assert.equal(tabs.length, 1);
  assert.ok(![before[0]!.id, leftOpen.id].includes(tabs[0]!.tabId), 'a tab of its own');
  await navigate(session, `${site.url}/agent/form`);
  await evaluate(session, `window.open(${JSON.stringify(`${site.url}/agent/done?name=popup`)}) && true`);
  await eventually(async () => (await session.listTabs()).length === 2, 5_000, "the popup, in the session's tabs");
  const others = (await pages()).filter((p) => p.id === before[0]!.id || p.id === leftOpen.id);
  assert.deepEqual(
    others.map((p) => p.url),
    ['about:blank', 'about:blank'],
    'the other tabs were not navigated',
  );
  await set.closeAll('test over');
  await eventually(async () => (await pages()).length === 2, 5_000, 'its tab and popup closed');
  assert.deepEqual(new Set((await pages()).map((p) => p.id)), new Set([before[0]!.id, leftOpen.id]), "the default tab and the other client's stay");
  await fetch(`${browser.httpUrl}/json/close/${leftOpen.id}`);
});

test('a tab opened above the one it drives: the next action brings its tab to the front, where the page paints', async () => {
  const set = new SessionSet(routed);
  const session = await set.open();
  try {
    const page = await navigate(session, `${site.url}/agent/cart`);
    // Someone else (the user, another client) opens a tab in front of it.
    const above = (await (await fetch(`${browser.httpUrl}/json/new?about:blank`, { method: 'PUT' })).json()) as Listed;
    await fetch(`${browser.httpUrl}/json/activate/${above.id}`);
    assert.equal(await evaluate(session, 'document.visibilityState'), '"visible"', "the agent's tab is in front again");
    const result = await act(session, [{ action: 'click', ref: refOf(page, /button "Add to cart"/) }]);
    assert.match(result, /No element changed; the page's text did:\n\+ Added to cart!/);
    // /json/close answers before the tab is gone; the next test reads the tabs as they are.
    await fetch(`${browser.httpUrl}/json/close/${above.id}`);
    await eventually(async () => !(await pages()).some((p) => p.id === above.id), 5_000, 'the tab above closed');
  } finally {
    await set.closeAll('test over');
  }
});

test('endpoint forms: a DevTools address as http://host:port or ws://host:port is the browser; a gateway or a site is a connect', async () => {
  assert.equal((await browseTarget(browser.httpUrl)).kind, 'browser');
  // ws://host:port as Puppeteer's browserURL users write it: the DevTools HTTP address of that port.
  assert.deepEqual(await browseTarget(`ws://127.0.0.1:${browser.port}`), { kind: 'browser', devtools: new URL(`http://127.0.0.1:${browser.port}/`) });
  assert.equal((await browseTarget(browser.wsUrl)).kind, 'browser');
  const other = await browseTarget(site.url, 'a-token');
  assert.equal(other.kind, 'connect');
  assert.equal(other.kind === 'connect' && other.url.pathname, '/v1/connect');
  assert.equal((await browseTarget(`${site.url}/v1/connect`)).kind, 'connect');
});

test('gateway browse --endpoint http://host:port of a browser started with --remote-debugging-port: it opens, in a tab of its own', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'gw-browse-devtools-'));
  const env = { PATH: process.env.PATH, HOME: home, GW_DATA_DIR: path.join(home, 'data') } as unknown as NodeJS.ProcessEnv;
  const gateway = (...args: string[]) =>
    promisify(execFile)(process.execPath, [path.resolve(import.meta.dirname, '../cli/gateway.mjs'), 'browse', ...args], { env });
  const defaultTab = (await pages())[0]!;
  try {
    const { stdout } = await gateway('open', `${site.url}/agent/cart`, '--endpoint', browser.httpUrl);
    assert.match(stdout, /Page: "Shop"/);
    assert.equal((await pages()).find((p) => p.id === defaultTab.id)?.url, 'about:blank', 'the default tab is left alone');
  } finally {
    await gateway('close').catch(() => {});
    rmSync(home, { recursive: true, force: true });
  }
});
