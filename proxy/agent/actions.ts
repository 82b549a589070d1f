// Acting on the page as a person would: pointer and keyboard events from the browser's input
// pipeline (Input.*), at the element's centre after it was scrolled into view and found visible,
// enabled and on top there. Nothing is clicked through `element.click()`, which skips all of that.
// Each action waits for what it started (a navigation, requests) to settle, then answers with what
// changed on the page. The steps themselves: steps.ts. Also the session's tabs (browser_tabs): list,
// open, switch, close.
import { afterAction, snapshot } from './reading';
import { runStep } from './steps';
import type { AgentSession } from './session';
import type { Tab } from './tab';
import { AgentError, type ActionStep } from './types';
import { agentError } from './cdp';

const NAVIGATION_TIMEOUT_MS = 30_000;
/** How long an action's own requests may keep it from answering (a long poll would hold it forever). */
const SETTLE_MS = 2_000;

/** The schemes an agent may open: the web, and a blank page. */
export function checkNavigable(url: string): string {
  if (url === 'about:blank') return url;
  let parsed: URL;
  try {
    parsed = new URL(/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`);
  } catch {
    throw new AgentError('invalid', `"${url}" is not an address; give a full URL such as https://example.com`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new AgentError('invalid', `only http and https addresses can be opened (got ${parsed.protocol})`);
  return parsed.href;
}

export async function navigate(session: AgentSession, url: string): Promise<string> {
  const loaded = await openIn(await session.tab(), checkNavigable(url));
  const note = loaded ? '' : `The page was still loading after ${NAVIGATION_TIMEOUT_MS / 1000} s; this is what it shows so far.\n`;
  return `${note}${withFresh(session, await snapshot(session))}`;
}

/**
 * Opens an address (already checked) in a tab and waits for its load; false when it was still
 * loading at the deadline. The tab counts as loading from the command on, so a load that has not
 * started yet when the wait begins is still waited for.
 */
export async function openIn(tab: Tab, target: string): Promise<boolean> {
  tab.loading = true;
  const result = await tab.send('Page.navigate', { url: target }, NAVIGATION_TIMEOUT_MS);
  if (result.errorText) {
    tab.loading = false;
    throw new AgentError('navigation', `Could not open ${target}: ${result.errorText}`);
  }
  // A same-document navigation (only the fragment changed) has no load to wait for.
  if (!result.loaderId) tab.loading = false;
  return tab.waitForLoad(NAVIGATION_TIMEOUT_MS);
}

/** Runs the steps in order; the first that fails stops the rest (unless told otherwise) and says why. */
export async function act(session: AgentSession, steps: ActionStep[], options: { stopOnError?: boolean } = {}): Promise<string> {
  if (steps.length === 0) throw new AgentError('invalid', 'give at least one step');
  const tab = await session.tab();
  const before = tab.loaderId;
  // The visible text now, to tell what an action changed beyond the elements (a "saved" message).
  await tab.call('markText', []).catch(() => {});
  const since = Date.now();
  const report: string[] = [];
  let failed = false;
  for (const [index, step] of steps.entries()) {
    const key = JSON.stringify(step);
    try {
      // A step after one that navigated acts on the new document only if its ref came from there.
      report.push(`${index + 1}. ${await runStep(session, await session.tab(), step)}`);
      session.clearFailure(key);
    } catch (thrown) {
      const error = agentError(thrown);
      if (!(error instanceof AgentError)) throw error;
      const count = session.noteFailure(key);
      const loop = count >= 3 ? ` This step has now failed ${count} times: try a different approach.` : '';
      report.push(`${index + 1}. ${describeStep(step)} failed: ${error.message}${loop}`);
      failed = true;
      if (options.stopOnError !== false) {
        if (index < steps.length - 1) report.push(`Steps ${index + 2}–${steps.length} were not run.`);
        break;
      }
    }
  }
  await settle(tab, since);
  const changes = await afterAction(session, await session.tab(), before);
  const text = `${report.join('\n')}\n\n${withFresh(session, changes)}`;
  if (failed) throw new AgentError('not_actionable', text);
  return text;
}

function withFresh(session: AgentSession, text: string): string {
  const fresh = session.observations.takeFresh();
  return fresh.length > 0 ? `${fresh.map((f) => `Note: ${f}`).join('\n')}\n${text}` : text;
}

function describeStep(step: ActionStep): string {
  switch (step.action) {
    case 'press':
      return `press ${step.key}${step.ref ? ` on ${step.ref}` : ''}`;
    case 'scroll':
      return `scroll ${step.direction}${step.ref ? ` in ${step.ref}` : ''}`;
    default:
      return `${step.action} ${step.ref}`;
  }
}

/**
 * Lets what an action started finish: a navigation (up to 30 s for its load) and the requests it
 * sent (up to 2 s: long polls must not hold the answer).
 */
async function settle(tab: Tab, since: number): Promise<void> {
  // The page runs the tasks the input queued (a form's submission is one) before we look.
  await tab.call('settled', [], { retry: true }).catch(() => {});
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    if (tab.loading) await tab.waitForLoad(NAVIGATION_TIMEOUT_MS);
    if (tab.pendingSince(since) === 0 || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  // One frame for the handlers of what just arrived to update the DOM.
  await tab.call('scrollState', [], { retry: true }).catch(() => {});
}

/** browser_tabs: lists the tabs, or opens, selects or closes one; answers with the tabs as they are then. */
export async function tabs(session: AgentSession, args: { action: 'list' | 'new' | 'select' | 'close'; tabId?: string; url?: string }): Promise<string> {
  const render = async () =>
    (await session.listTabs()).map((t) => `${t.current ? '* ' : '  '}${t.tabId} ${JSON.stringify(t.title.slice(0, 80))} ${t.url}`).join('\n');
  switch (args.action) {
    case 'list':
      return render();
    case 'new': {
      const url = args.url ? checkNavigable(args.url) : 'about:blank';
      // Made blank and then navigated like browser_navigate, so the answer comes after the load:
      // a tab created with its address may not have started loading by the time it is attached.
      const tab = await session.createTab();
      await session.selectTab(tab.targetId);
      if (url !== 'about:blank') await openIn(tab, url);
      return `Opened and switched to tab ${tab.targetId}.\n${await render()}\nTake a snapshot to see it.`;
    }
    case 'select':
      if (!args.tabId) throw new AgentError('invalid', 'select needs tabId (from browser_tabs list)');
      await session.selectTab(args.tabId);
      return `Switched to tab ${args.tabId}.\n${await render()}\nTake a snapshot to see it.`;
    case 'close':
      if (!args.tabId) throw new AgentError('invalid', 'close needs tabId (from browser_tabs list)');
      await session.closeTab(args.tabId);
      return `Closed tab ${args.tabId}.\n${await render()}`;
  }
}
