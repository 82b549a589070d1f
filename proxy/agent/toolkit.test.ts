// The agent toolkit against a real Chromium and a local site, with no proxy in between (the MCP
// tests in e2e/api drive it through the proxy): snapshots and refs, every action, refs that fail
// closed after a re-render and after a navigation the page started itself, the snapshot budget on a
// page of 1,000 controls, screenshots, observe, tabs, eval, and the idle close.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { launchChromium, type Chromium } from '../../e2e/support/chromium';
import { startTestSite, type TestSite } from '../../e2e/support/test-site';
import { act, navigate } from './actions';
import { evaluate, extract, observe, screenshot, snapshot, wait } from './reading';
import { MAX_SNAPSHOT_BYTES } from './snapshot';
import { SessionSet } from './session-set';
import { agentTools, runTool } from './tools';
import { AgentError, type AgentEndpoint } from './types';
import type { AgentSession } from './session';

let browser: Chromium;
let site: TestSite;
const endpoint: AgentEndpoint = { kind: 'browser', connect: async () => ({ url: browser.wsUrl }) };

before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
});
after(async () => {
  await Promise.all([browser?.stop(), site?.close()]);
});

async function withSession(work: (session: AgentSession) => Promise<void>, policy = {}): Promise<void> {
  const set = new SessionSet(endpoint, policy);
  const session = await set.open();
  try {
    await work(session);
  } finally {
    await set.closeAll('test over');
  }
}

/** The ref of the first snapshot line that matches. */
function refOf(text: string, pattern: RegExp): string {
  const line = text.split('\n').find((l) => pattern.test(l));
  assert.ok(line, `no line matching ${pattern} in:\n${text}`);
  return /^e\d+/.exec(line!)![0];
}

async function rejects(promise: Promise<unknown>, code: AgentError['code'], message: RegExp): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AgentError, `expected an AgentError, got ${error}`);
    assert.equal(error.code, code, error.message);
    assert.match(error.message, message);
    return error;
  }
  assert.fail('expected a refusal');
}

test('a form filled and sent with real input: fill, type, select, check, click; the result read back', async () => {
  await withSession(async (s) => {
    const page = await navigate(s, `${site.url}/agent/form`);
    assert.match(page, /^Page: "Sign up" http:\/\/127\.0\.0\.1:\d+\/agent\/form/);
    const name = refOf(page, /textbox "Full name" value="" required/);
    const email = refOf(page, /textbox "Email" value="" type=email/);
    const plan = refOf(page, /combobox "Plan" value="Basic" options=2/);
    const news = refOf(page, /checkbox "Send me news"$/);
    const note = refOf(page, /textbox "Note"/);
    const submit = refOf(page, /button "Create account"/);
    const result = await act(s, [
      { action: 'fill', ref: name, text: 'Ada Lovelace' },
      { action: 'type', ref: email, text: 'ada@example.com' },
      { action: 'select', ref: plan, option: 'Pro' },
      { action: 'check', ref: news },
      { action: 'fill', ref: note, text: 'first line' },
    ]);
    assert.match(result, /1\. filled e\d+\n2\. typed into e\d+\n3\. selected "Pro" in e\d+\n4\. checked e\d+\n5\. filled e\d+/);
    // The diff shows the new values, no full snapshot.
    assert.match(result, new RegExp(`~ ${name} textbox "Full name" value="Ada Lovelace"`));
    assert.match(result, new RegExp(`~ ${news} checkbox "Send me news" checked`));
    assert.doesNotMatch(result, /^e\d+ button "Create account"/m, 'unchanged lines are left out');
    // Refilling replaces; checking a checked box is a no-op that says so.
    assert.match(
      await act(s, [
        { action: 'fill', ref: name, text: 'Ada King' },
        { action: 'check', ref: news },
      ]),
      /was already checked/,
    );
    const sent = await act(s, [{ action: 'click', ref: submit }]);
    assert.match(sent, /changed to a new document; refs from before are no longer valid/);
    assert.match(sent, /Page: "Welcome"/);
    const text = await extract(s, { format: 'text' });
    assert.match(text, /Thanks, Ada King/);
    assert.match(text, /email=ada@example\.com plan=pro news=on note=first line/);
  });
});

test('press: Enter in a field submits its form; a key name it does not know is refused with the names', async () => {
  await withSession(async (s) => {
    const page = await navigate(s, `${site.url}/agent/form`);
    const name = refOf(page, /textbox "Full name"/);
    await act(s, [{ action: 'fill', ref: name, text: 'Grace' }]);
    const sent = await act(s, [{ action: 'press', ref: name, key: 'Enter' }]);
    assert.match(sent, /Thanks, Grace|Page: "Welcome"/);
    await rejects(act(s, [{ action: 'press', key: 'Hyper+q' }]), 'not_actionable', /"Hyper" is not a modifier key/);
  });
});

test("refs fail closed after a re-render: the old element's ref is refused, the new one is never clicked, numbers are not reused", async () => {
  await withSession(async (s) => {
    const first = await navigate(s, `${site.url}/agent/rerender`);
    const item1 = refOf(first, /button "Item 1"/);
    const shuffle = refOf(first, /button "Shuffle"/);
    const changed = await act(s, [{ action: 'click', ref: shuffle }]);
    // Three items removed, three new ones with new numbers.
    assert.equal((changed.match(/^- e\d+ button "Item \d"/gm) ?? []).length, 3, changed);
    const added = [...changed.matchAll(/^\+ (e\d+) button "Item \d"/gm)].map((m) => Number(m[1]!.slice(1)));
    assert.equal(added.length, 3, changed);
    assert.ok(
      added.every((n) => n > Number(item1.slice(1)) + 2),
      `new refs ${added} reuse no old number`,
    );
    const refusal = await rejects(act(s, [{ action: 'click', ref: item1 }]), 'not_actionable', new RegExp(`${item1} is stale.*Take a new snapshot`));
    assert.doesNotMatch(refusal.message, /clicked/);
    assert.equal(await evaluate(s, "document.getElementById('log').textContent"), '""', 'no item was clicked');
  });
});

test('refs fail closed after a navigation the page started itself: the same-looking button on the new page is not clicked', async () => {
  await withSession(async (s) => {
    const id = randomUUID();
    const page = await navigate(s, `${site.url}/agent/self-nav?id=${id}`);
    const go = refOf(page, /button "Continue"/);
    site.release(id);
    await wait(s, { urlContains: '/agent/landing' });
    const refusal = await rejects(act(s, [{ action: 'click', ref: go }]), 'not_actionable', new RegExp(`${go} is stale`));
    assert.match(refusal.message, /Page: "Landed"/, 'the answer shows the new page');
    assert.equal(await evaluate(s, 'document.title'), '"Landed"', "the new page's button was not clicked");
    // A fresh snapshot gives the new button a new ref that works.
    const fresh = refOf(await snapshot(s), /button "Continue"/);
    assert.notEqual(fresh, go);
    await act(s, [{ action: 'click', ref: fresh }]);
    assert.equal(await evaluate(s, 'document.title'), '"clicked-new"');
  });
});

test('refs never handed out, or malformed, are refused without acting', async () => {
  await withSession(async (s) => {
    await navigate(s, `${site.url}/agent/form`);
    await rejects(act(s, [{ action: 'click', ref: 'e9999' }]), 'not_actionable', /e9999 was never handed out/);
    await rejects(act(s, [{ action: 'click', ref: 'button' }]), 'not_actionable', /"button" is not a ref/);
  });
});

test('a covered element is not clicked through its cover: the answer names what covers it', async () => {
  await withSession(async (s) => {
    const page = await navigate(s, `${site.url}/agent/covered`);
    const under = refOf(page, /button "Under"/);
    await rejects(act(s, [{ action: 'click', ref: under }]), 'not_actionable', /covered by <div#overlay> "Cookie banner"/);
    assert.equal(await evaluate(s, 'document.title'), '"Covered"');
  });
});

test('an action that fetches: the answer waits for the request and shows the element it added', async () => {
  await withSession(async (s) => {
    const load = refOf(await navigate(s, `${site.url}/agent/spa`), /button "Load more"/);
    const result = await act(s, [{ action: 'click', ref: load }]);
    assert.match(result, /^\+ e\d+ link "Loaded 200"/m);
  });
});

test('a page of 1,000 controls: the snapshot stays under 16 KB and says what it left out and how to get it', async () => {
  await withSession(async (s) => {
    const view = await navigate(s, `${site.url}/agent/large?n=1000`);
    assert.ok(Buffer.byteLength(view) <= MAX_SNAPSHOT_BYTES, `${Buffer.byteLength(view)} bytes`);
    assert.match(view, /Outside the viewport: \d+ below\. Scroll, or snapshot with scope "full"\./);
    const full = await snapshot(s, { scope: 'full' });
    assert.ok(Buffer.byteLength(full) <= MAX_SNAPSHOT_BYTES, `${Buffer.byteLength(full)} bytes`);
    assert.match(full, /… \d+ more elements not shown \(the 200-line cap\): raise maxLines \(up to 1000\), scroll, or read the page with browser_extract\./);
    const most = await snapshot(s, { scope: 'full', maxLines: 1000 });
    assert.ok(Buffer.byteLength(most) <= MAX_SNAPSHOT_BYTES, `${Buffer.byteLength(most)} bytes`);
    assert.match(most, /not shown \(the 16 KB cap\)/);
    // Scrolling brings the next elements into view.
    const scrolled = await act(s, [{ action: 'scroll', direction: 'down' }]);
    assert.match(scrolled, /scrolled down to \d+ of \d+ px/);
  });
});

test('screenshots: a JPEG of the viewport, of an element and of the whole page; an unchanged one is skipped', async () => {
  await withSession(async (s) => {
    const page = await navigate(s, `${site.url}/agent/form`);
    const first = await screenshot(s);
    assert.deepEqual([...first.image!.subarray(0, 3)], [0xff, 0xd8, 0xff]);
    const skipped = await screenshot(s, { skipIfUnchanged: true });
    assert.equal(skipped.image, null);
    assert.match(skipped.note, /Unchanged/);
    const element = await screenshot(s, { ref: refOf(page, /button "Create account"/) });
    assert.ok(element.image!.length < first.image!.length, 'an element is smaller than the viewport');
    const full = await screenshot(s, { fullPage: true });
    assert.match(full.note, /the whole page/);
  });
});

test('observe: failed requests and dialogs (dismissed), with the note that the console is off', async () => {
  await withSession(async (s) => {
    await navigate(s, `${site.url}/missing`);
    await evaluate(s, "setTimeout(() => alert('hello there'), 0); 1");
    await wait(s, { text: 'nothing at this address' });
    const seen = observe(s);
    assert.match(seen, /request: Document http:\/\/127\.0\.0\.1:\d+\/missing — 404 Not Found/);
    assert.match(seen, /dialog: alert "hello there"/);
    assert.match(seen, /Console output is not captured/);
    assert.match(observe(s), /^Nothing new since the last observe\./);
  });
});

test('tabs: open one, list, switch, close; eval returns JSON; wait times out with a useful message', async () => {
  const set = new SessionSet(endpoint);
  const session = await set.open();
  const ctx = { sessions: set };
  const tools = Object.fromEntries(agentTools().map((t) => [t.name, t]));
  const call = async (name: string, args: unknown) => {
    const result = await runTool(tools[name]!, ctx, args);
    return { error: result.isError === true, text: (result.content[0] as { text: string }).text };
  };
  try {
    await navigate(session, `${site.url}/basic`);
    const opened = await call('browser_tabs', { action: 'new', url: `${site.url}/agent/form` });
    assert.match(opened.text, /Opened and switched to tab/);
    const list = await call('browser_tabs', { action: 'list' });
    assert.equal(list.text.split('\n').length, 2, list.text);
    assert.match(list.text, /^\* \S+ "Sign up"/m);
    const other = /^ {2}(\S+) /m.exec(list.text)![1]!;
    await call('browser_tabs', { action: 'select', tabId: other });
    assert.match((await call('browser_eval', { expression: '({ path: location.pathname, n: [1, 2] })' })).text, /\{"path":"\/basic","n":\[1,2\]\}/);
    const closed = await call('browser_tabs', { action: 'close', tabId: other });
    assert.equal(closed.text.split('\n').length, 2, closed.text);
    const waited = await call('browser_wait', { text: 'never there', timeoutMs: 300 });
    assert.ok(waited.error);
    assert.match(waited.text, /Not within 300 ms: the text "never there" is on the page/);
    const thrown = await call('browser_eval', { expression: 'nope.nope' });
    assert.ok(thrown.error);
    assert.match(thrown.text, /The expression threw: ReferenceError: nope is not defined/);
    assert.match((await call('browser_navigate', { url: 'file:///etc/passwd' })).text, /only http and https addresses can be opened/);
  } finally {
    await set.closeAll('test over');
  }
});

test('the idle close: a browser left without a tool call closes itself, and later calls say why', async () => {
  const set = new SessionSet(endpoint, { defaultIdleMs: 300, minIdleMs: 100 });
  const session = await set.open();
  const closed = new Promise<string>((resolve) => session.onClose(resolve));
  // The keepalive does not count as activity: the close comes anyway.
  assert.match(await closed, /closed after 0 s without a tool call|without a tool call/);
  assert.throws(() => set.get(session.id), /is closed/);
  assert.throws(() => set.get(), /no browser is open/);
});

test('a tool call longer than the idle time is not closed under itself; the idle time counts from its end', async () => {
  const set = new SessionSet(endpoint, { defaultIdleMs: 300, minIdleMs: 100, maxSessions: 2 });
  const busy = await set.open();
  let finish!: () => void;
  const call = busy.run(() => new Promise<void>((resolve) => (finish = resolve)));
  // A session opened after the call began, with the same idle time and no call: once it has closed
  // for being idle, the busy one has been in its call longer than the idle time.
  const idle = await set.open();
  await new Promise((resolve) => idle.onClose(resolve));
  assert.doesNotThrow(() => set.get(busy.id), 'the session with a call in flight is open');
  const closed = new Promise<string>((resolve) => busy.onClose(resolve));
  const endedAt = Date.now();
  finish();
  await call;
  assert.match(await closed, /without a tool call/);
  assert.ok(Date.now() - endedAt >= 300, 'the idle time counted from the end of the call');
});

test('several browsers: calls without a sessionId are refused rather than guessed; the cap holds', async () => {
  const set = new SessionSet(endpoint, { maxSessions: 2 });
  try {
    const [a, b] = [await set.open(), await set.open()];
    assert.throws(() => set.get(), /2 browsers are open: name one with sessionId/);
    assert.equal(set.get(a.id), a);
    assert.equal(set.get(b.id), b);
    await assert.rejects(set.open(), /at most 2 browsers can be open at once/);
  } finally {
    await set.closeAll('test over');
  }
});

test("a browser of the user's own is shared: each session sees and closes only its own tabs, never the user's or another session's", async () => {
  const pages = async () =>
    ((await (await fetch(`${browser.httpUrl}/json/list`)).json()) as { id: string; type: string; url: string }[]).filter((t) => t.type === 'page');
  // The user's own tab, opened here: tabs that earlier tests' sessions closed may still be listed
  // for a moment (Target.closeTarget answers before the tab is gone), so they are not the user's.
  const userTab = (await (await fetch(`${browser.httpUrl}/json/new?${site.url}/basic?user`, { method: 'PUT' })).json()) as { id: string };
  const userTabs = [userTab.id];
  assert.ok(
    (await pages()).some((t) => t.id === userTab.id),
    'the user has a tab open',
  );
  const set = new SessionSet(endpoint);
  try {
    const [a, b] = [await set.open(), await set.open()];
    await navigate(a, `${site.url}/basic`);
    await navigate(b, `${site.url}/agent/form`);
    const [tabsA, tabsB] = [await a.listTabs(), await b.listTabs()];
    assert.equal(tabsA.length, 1, JSON.stringify(tabsA));
    assert.equal(tabsB.length, 1, JSON.stringify(tabsB));
    assert.match(tabsA[0]!.url, /\/basic$/);
    assert.match(tabsB[0]!.url, /\/agent\/form$/);
    for (const id of [...userTabs, tabsB[0]!.tabId]) await assert.rejects(a.selectTab(id), /no tab .* in this session/);
    await set.close(a.id, 'done');
    // Target.closeTarget answers before the tab is gone: poll with a deadline.
    let left = (await pages()).map((t) => t.id);
    for (const deadline = Date.now() + 5_000; left.includes(tabsA[0]!.tabId) && Date.now() < deadline;) left = (await pages()).map((t) => t.id);
    assert.ok(!left.includes(tabsA[0]!.tabId), 'the session closed its own tab');
    for (const id of [...userTabs, tabsB[0]!.tabId]) assert.ok(left.includes(id), `tab ${id} is still open`);
  } finally {
    await set.closeAll('test over');
    await fetch(`${browser.httpUrl}/json/close/${userTab.id}`);
  }
});
