// The steps an agent can take on a page (act() in actions.ts runs them), one function each:
// pointer and keyboard events from the browser's input pipeline at the element's centre, after the
// page's own checks (visible, enabled, on top). Each answers with what it did.
import { parseKey } from './keys';
import { checkRef, refError } from './reading';
import type { AgentSession } from './session';
import type { Tab } from './tab';
import { AgentError, type ActionStep } from './types';

type Action = ActionStep['action'];
type Runner<A extends Action> = (session: AgentSession, tab: Tab, step: ActionStep & { action: A }) => Promise<string>;

/** Runs one step on the tab. */
export function runStep(session: AgentSession, tab: Tab, step: ActionStep): Promise<string> {
  return (STEPS[step.action] as Runner<Action>)(session, tab, step);
}

const clickStep: Runner<'click'> = async (session, tab, step) => {
  const ref = checkRef(session, tab, step.ref);
  const at = await pointOf(session, tab, ref, 'click');
  await click(tab, at.x, at.y);
  return `clicked ${ref}`;
};

const hoverStep: Runner<'hover'> = async (session, tab, step) => {
  const ref = checkRef(session, tab, step.ref);
  const at = await pointOf(session, tab, ref, 'hover');
  await tab.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: at.x, y: at.y });
  return `hovering over ${ref}`;
};

const checkStep: Runner<'check' | 'uncheck'> = async (session, tab, step) => {
  const ref = checkRef(session, tab, step.ref);
  const want = step.action === 'check';
  const info = await infoOf(session, tab, ref);
  if (info.checked === want) return `${ref} was already ${want ? 'checked' : 'unchecked'}`;
  const at = await pointOf(session, tab, ref, 'click');
  await click(tab, at.x, at.y);
  const after = await infoOf(session, tab, ref);
  if (after.checked !== want)
    throw new AgentError(
      'not_actionable',
      `clicking ${ref} did not ${step.action} it (a radio button cannot be unchecked by a click; some controls need another element clicked)`,
    );
  return `${want ? 'checked' : 'unchecked'} ${ref}`;
};

const fillStep: Runner<'fill' | 'type'> = async (session, tab, step) => {
  const ref = checkRef(session, tab, step.ref);
  if (step.text.length > 100_000) throw new AgentError('invalid', 'the text is longer than 100,000 characters');
  const at = await pointOf(session, tab, ref, 'click');
  if (!at.editable)
    throw new AgentError(
      'not_actionable',
      at.tag === 'select'
        ? `${ref} is a drop-down: use select with an option`
        : `${ref} is not a text field (it is a <${at.tag}${at.type ? ` type=${at.type}` : ''}>)`,
    );
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
  if (expected !== null && after.value !== null && after.value !== expected)
    return `filled ${ref}; its value is now ${JSON.stringify(clip(after.value))} (the field changed what was typed)`;
  return `${step.action === 'fill' ? 'filled' : 'typed into'} ${ref}`;
};

const pressStep: Runner<'press'> = async (session, tab, step) => {
  if (step.ref) {
    const ref = checkRef(session, tab, step.ref);
    const focused = await tab.call<{ error?: string; focused?: boolean }>('focus', [ref]);
    if (focused.error) throw refError(session, ref, focused.error);
  }
  await pressKey(tab, step.key);
  return `pressed ${step.key}${step.ref ? ` on ${step.ref}` : ''}`;
};

const selectStep: Runner<'select'> = async (session, tab, step) => {
  const ref = checkRef(session, tab, step.ref);
  // Pointer checks first (visible, enabled, on top), then the option is chosen the way the
  // drop-down's own list would: native lists are drawn outside the page.
  await pointOf(session, tab, ref, 'click');
  const chosen = await tab.call<{ error?: string; options?: string[]; selected?: string }>('selectOption', [ref, step.option]);
  if (chosen.error === 'not-select')
    throw new AgentError('not_actionable', `${ref} is not a <select>; click it, then click the option in the snapshot that follows`);
  if (chosen.error === 'no-option')
    throw new AgentError(
      'invalid',
      `${ref} has no option ${JSON.stringify(step.option)}; its options: ${chosen.options!.map((o) => JSON.stringify(o)).join(', ')}`,
    );
  if (chosen.error === 'option-disabled') throw new AgentError('not_actionable', `the option ${JSON.stringify(step.option)} of ${ref} is disabled`);
  if (chosen.error) throw refError(session, ref, chosen.error);
  return `selected ${JSON.stringify(chosen.selected)} in ${ref}`;
};

const scrollStep: Runner<'scroll'> = async (session, tab, step) => {
  const state = await tab.call<{ y: number; x: number; height: number; viewport: number; viewportWidth: number }>('scrollState', [], { retry: true });
  let x = state.viewportWidth / 2;
  let y = state.viewport / 2;
  if (step.ref) {
    const ref = checkRef(session, tab, step.ref);
    const at = await pointOf(session, tab, ref, 'hover');
    x = at.x;
    y = at.y;
  }
  const amount = Math.max(
    1,
    Math.min(100_000, Math.floor(step.amount ?? (step.direction === 'up' || step.direction === 'down' ? state.viewport * 0.8 : state.viewportWidth * 0.8))),
  );
  const deltaY = step.direction === 'down' ? amount : step.direction === 'up' ? -amount : 0;
  const deltaX = step.direction === 'right' ? amount : step.direction === 'left' ? -amount : 0;
  await tab.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x, y, deltaX, deltaY });
  const after = await waitForScroll(tab, state);
  const moved = after.y !== state.y || after.x !== state.x;
  return moved
    ? `scrolled ${step.direction} to ${after.y} of ${Math.max(0, after.height - after.viewport)} px`
    : `scrolled ${step.direction}: nothing moved (the page is at its end there, or the area under the pointer does not scroll)`;
};

const STEPS: { [A in Action]: Runner<A> } = {
  click: clickStep,
  hover: hoverStep,
  check: checkStep,
  uncheck: checkStep,
  fill: fillStep,
  type: fillStep,
  press: pressStep,
  select: selectStep,
  scroll: scrollStep,
};

async function pointOf(session: AgentSession, tab: Tab, ref: string, intent: 'click' | 'hover' | 'focus') {
  const at = await tab
    .call<{ error?: string; detail?: string; x: number; y: number; tag: string; type: string; editable: boolean }>('point', [ref, intent])
    .catch((error: unknown) => {
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
    await tab.send('Input.dispatchKeyEvent', {
      type: 'rawKeyDown',
      key: modifier.key,
      code: modifier.code,
      windowsVirtualKeyCode: modifier.keyCode,
      modifiers: bits,
    });
  }
  const down = { key: event.key, code: event.code, windowsVirtualKeyCode: event.keyCode, modifiers: event.modifiers, commands: event.commands };
  await tab.send(
    'Input.dispatchKeyEvent',
    event.text !== undefined ? { type: 'keyDown', text: event.text, unmodifiedText: event.text, ...down } : { type: 'rawKeyDown', ...down },
  );
  await tab.send('Input.dispatchKeyEvent', {
    type: 'keyUp',
    key: event.key,
    code: event.code,
    windowsVirtualKeyCode: event.keyCode,
    modifiers: event.modifiers,
  });
  for (const modifier of [...modifiers].reverse()) {
    bits &= ~modifierBit(modifier.key);
    await tab.send('Input.dispatchKeyEvent', {
      type: 'keyUp',
      key: modifier.key,
      code: modifier.code,
      windowsVirtualKeyCode: modifier.keyCode,
      modifiers: bits,
    });
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

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
