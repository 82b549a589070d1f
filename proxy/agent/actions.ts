// Acting on the page as a person would: pointer and keyboard events from the browser's input
// pipeline (Input.*), at the element's centre after it was scrolled into view and found visible,
// enabled and on top there. Nothing is clicked through `element.click()`, which skips all of that.
// Each action waits for what it started (a navigation, requests) to settle, then answers with what
// changed on the page.
import { parseKey } from './keys';
import { afterAction, checkRef, refError, snapshot } from './reading';
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
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new AgentError('invalid', `only http and https addresses can be opened (got ${parsed.protocol})`);
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

async function runStep(session: AgentSession, tab: Tab, step: ActionStep): Promise<string> {
  switch (step.action) {
    case 'click': {
      const ref = checkRef(session, tab, step.ref);
      const at = await pointOf(session, tab, ref, 'click');
      await click(tab, at.x, at.y);
      return `clicked ${ref}`;
    }
    case 'hover': {
      const ref = checkRef(session, tab, step.ref);
      const at = await pointOf(session, tab, ref, 'hover');
      await tab.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: at.x, y: at.y });
      return `hovering over ${ref}`;
    }
    case 'check':
    case 'uncheck': {
      const ref = checkRef(session, tab, step.ref);
      const want = step.action === 'check';
      const info = await infoOf(session, tab, ref);
      if (info.checked === want) return `${ref} was already ${want ? 'checked' : 'unchecked'}`;
      const at = await pointOf(session, tab, ref, 'click');
      await click(tab, at.x, at.y);
      const after = await infoOf(session, tab, ref);
      if (after.checked !== want) throw new AgentError('not_actionable', `clicking ${ref} did not ${step.action} it (a radio button cannot be unchecked by a click; some controls need another element clicked)`);
      return `${want ? 'checked' : 'unchecked'} ${ref}`;
    }
    case 'fill':
    case 'type': {
      const ref = checkRef(session, tab, step.ref);
      if (step.text.length > 100_000) throw new AgentError('invalid', 'the text is longer than 100,000 characters');
      const at = await pointOf(session, tab, ref, 'click');
      if (!at.editable) throw new AgentError('not_actionable', at.tag === 'select' ? `${ref} is a drop-down: use select with an option` : `${ref} is not a text field (it is a <${at.tag}${at.type ? ` type=${at.type}` : ''}>)`);
      const info = await infoOf(session, tab, ref);
      if (!info.focused) await click(tab, at.x, at.y);
      if (step.action === 'fill') {
        const selected = await tab.call<{ ok?: boolean; error?: string }>('selectAll', [ref]);
        if (selected.error) throw refError(session, ref, selected.error);
        if (!selected.ok) await pressKey(tab, 'Control+a');
        if (step.text === '') await pressKey(tab, 'Delete');
        else await tab.send('Input.insertText', { text: step.text });
      } else {
        await typeText(tab, step.text);
      }
      const after = await infoOf(session, tab, ref);
      const expected = step.action === 'fill' ? step.text : null;
      if (expected !== null && after.value !== null && after.value !== expected) return `filled ${ref}; its value is now ${JSON.stringify(clip(after.value))} (the field changed what was typed)`;
      return `${step.action === 'fill' ? 'filled' : 'typed into'} ${ref}`;
    }
    case 'press': {
      if (step.ref) {
        const ref = checkRef(session, tab, step.ref);
        const focused = await tab.call<{ error?: string; focused?: boolean }>('focus', [ref]);
        if (focused.error) throw refError(session, ref, focused.error);
      }
      await pressKey(tab, step.key);
      return `pressed ${step.key}${step.ref ? ` on ${step.ref}` : ''}`;
    }
    case 'select': {
      const ref = checkRef(session, tab, step.ref);
      // Pointer checks first (visible, enabled, on top), then the option is chosen the way the
      // drop-down's own list would: native lists are drawn outside the page.
      await pointOf(session, tab, ref, 'click');
      const chosen = await tab.call<{ error?: string; options?: string[]; selected?: string }>('selectOption', [ref, step.option]);
      if (chosen.error === 'not-select') throw new AgentError('not_actionable', `${ref} is not a <select>; click it, then click the option in the snapshot that follows`);
      if (chosen.error === 'no-option') throw new AgentError('invalid', `${ref} has no option ${JSON.stringify(step.option)}; its options: ${chosen.options!.map((o) => JSON.stringify(o)).join(', ')}`);
      if (chosen.error === 'option-disabled') throw new AgentError('not_actionable', `the option ${JSON.stringify(step.option)} of ${ref} is disabled`);
      if (chosen.error) throw refError(session, ref, chosen.error);
      return `selected ${JSON.stringify(chosen.selected)} in ${ref}`;
    }
    case 'scroll': {
      const state = await tab.call<{ y: number; x: number; height: number; viewport: number; viewportWidth: number }>('scrollState', [], { retry: true });
      let x = state.viewportWidth / 2;
      let y = state.viewport / 2;
      if (step.ref) {
        const ref = checkRef(session, tab, step.ref);
        const at = await pointOf(session, tab, ref, 'hover');
        x = at.x;
        y = at.y;
      }
      const amount = Math.max(1, Math.min(100_000, Math.floor(step.amount ?? (step.direction === 'up' || step.direction === 'down' ? state.viewport * 0.8 : state.viewportWidth * 0.8))));
      const deltaY = step.direction === 'down' ? amount : step.direction === 'up' ? -amount : 0;
      const deltaX = step.direction === 'right' ? amount : step.direction === 'left' ? -amount : 0;
      await tab.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x, y, deltaX, deltaY });
      const after = await waitForScroll(tab, state);
      const moved = after.y !== state.y || after.x !== state.x;
      return moved ? `scrolled ${step.direction} to ${after.y} of ${Math.max(0, after.height - after.viewport)} px` : `scrolled ${step.direction}: nothing moved (the page is at its end there, or the area under the pointer does not scroll)`;
    }
  }
}

async function pointOf(session: AgentSession, tab: Tab, ref: string, intent: 'click' | 'hover' | 'focus') {
  const at = await tab.call<{ error?: string; detail?: string; x: number; y: number; tag: string; type: string; editable: boolean }>('point', [ref, intent]).catch((error: unknown) => {
    // The document went away while the element was being found: the ref belonged to it.
    if (error instanceof AgentError && error.code === 'stale_ref') throw refError(session, ref, 'gone');
    throw error;
  });
  if (at.error) throw refError(session, ref, at.error, at.detail);
  return at;
}

async function infoOf(session: AgentSession, tab: Tab, ref: string) {
  const info = await tab.call<{ error?: string; checked: boolean; value: string | null; focused: boolean }>('info', [ref]);
  if (info.error) throw refError(session, ref, info.error);
  return info;
}

async function click(tab: Tab, x: number, y: number): Promise<void> {
  await tab.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
  await tab.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', buttons: 1, clickCount: 1 });
  await tab.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', buttons: 0, clickCount: 1 });
}

async function pressKey(tab: Tab, spec: string): Promise<void> {
  const { modifiers, event } = parseKey(spec);
  let bits = 0;
  for (const modifier of modifiers) {
    bits |= modifierBit(modifier.key);
    await tab.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', key: modifier.key, code: modifier.code, windowsVirtualKeyCode: modifier.keyCode, modifiers: bits });
  }
  const down = { key: event.key, code: event.code, windowsVirtualKeyCode: event.keyCode, modifiers: event.modifiers, commands: event.commands };
  await tab.send('Input.dispatchKeyEvent', event.text !== undefined ? { type: 'keyDown', text: event.text, unmodifiedText: event.text, ...down } : { type: 'rawKeyDown', ...down });
  await tab.send('Input.dispatchKeyEvent', { type: 'keyUp', key: event.key, code: event.code, windowsVirtualKeyCode: event.keyCode, modifiers: event.modifiers });
  for (const modifier of [...modifiers].reverse()) {
    bits &= ~modifierBit(modifier.key);
    await tab.send('Input.dispatchKeyEvent', { type: 'keyUp', key: modifier.key, code: modifier.code, windowsVirtualKeyCode: modifier.keyCode, modifiers: bits });
  }
}

function modifierBit(key: string): number {
  return key === 'Alt' ? 1 : key === 'Control' ? 2 : key === 'Meta' ? 4 : 8;
}

/** Types text key by key (short text) or as one insertion (long text, where key events would take seconds). */
async function typeText(tab: Tab, text: string): Promise<void> {
  if (text.length > 200) {
    await tab.send('Input.insertText', { text });
    return;
  }
  for (const char of text) {
    if (char === '\n') {
      await pressKey(tab, 'Enter');
      continue;
    }
    await tab.send('Input.dispatchKeyEvent', { type: 'keyDown', key: char, text: char, unmodifiedText: char });
    await tab.send('Input.dispatchKeyEvent', { type: 'keyUp', key: char });
  }
}

/** Smooth scrolling takes a few frames: poll the position until it stops moving (at most 1 s). */
async function waitForScroll(tab: Tab, before: { x: number; y: number }) {
  type State = { y: number; x: number; height: number; viewport: number };
  let last = before as State;
  const deadline = Date.now() + 1_000;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = await tab.call<State>('scrollState', [], { retry: true });
    if ((now.y === last.y && now.x === last.x && (now.y !== before.y || now.x !== before.x)) || Date.now() > deadline) return now;
    last = now;
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

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
