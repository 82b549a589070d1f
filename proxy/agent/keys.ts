// Key names for `press` ("Enter", "Control+a", "Shift+Tab") as the CDP key events a real keyboard
// would send: key, code, the Windows virtual key code (what `keyCode` reads in the page), the text
// a printable key types, and the modifier bits.
import { AgentError } from './types';

export interface KeyEvent {
  key: string;
  code: string;
  keyCode: number;
  text?: string;
  modifiers: number;
  /** Editing commands Chromium runs for the shortcut (select all, undo…) on macOS-less hosts. */
  commands?: string[];
}

const MODIFIERS: Record<string, { bit: number; key: string; code: string; keyCode: number }> = {
  alt: { bit: 1, key: 'Alt', code: 'AltLeft', keyCode: 18 },
  control: { bit: 2, key: 'Control', code: 'ControlLeft', keyCode: 17 },
  ctrl: { bit: 2, key: 'Control', code: 'ControlLeft', keyCode: 17 },
  meta: { bit: 4, key: 'Meta', code: 'MetaLeft', keyCode: 91 },
  cmd: { bit: 4, key: 'Meta', code: 'MetaLeft', keyCode: 91 },
  shift: { bit: 8, key: 'Shift', code: 'ShiftLeft', keyCode: 16 },
};

const NAMED: Record<string, { key: string; code: string; keyCode: number; text?: string }> = {
  enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  return: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  esc: { key: 'Escape', code: 'Escape', keyCode: 27 },
  backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  arrowup: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  arrowdown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  arrowleft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  arrowright: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  up: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  down: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  left: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  right: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  home: { key: 'Home', code: 'Home', keyCode: 36 },
  end: { key: 'End', code: 'End', keyCode: 35 },
  pageup: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  pagedown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  insert: { key: 'Insert', code: 'Insert', keyCode: 45 },
};
for (let n = 1; n <= 12; n++) NAMED[`f${n}`] = { key: `F${n}`, code: `F${n}`, keyCode: 111 + n };

const SHORTCUT_COMMANDS: Record<string, string> = { a: 'selectAll', c: 'copy', x: 'cut', v: 'paste', z: 'undo', y: 'redo' };

/** "Control+Shift+a" → the key event; a name it does not know is an error that lists the names. */
export function parseKey(spec: string): { modifiers: { key: string; code: string; keyCode: number }[]; event: KeyEvent } {
  const parts = spec.split('+').map((p) => p.trim());
  // "Control++" means the plus key.
  if (spec.endsWith('++')) parts.splice(parts.length - 2, 2, '+');
  const main = parts.pop() ?? '';
  let bits = 0;
  const modifiers: { key: string; code: string; keyCode: number }[] = [];
  for (const name of parts) {
    const modifier = MODIFIERS[name.toLowerCase()];
    if (!modifier) throw new AgentError('invalid', `"${name}" is not a modifier key; use Control, Shift, Alt or Meta (as in "Control+a")`);
    bits |= modifier.bit;
    modifiers.push(modifier);
  }
  const named = NAMED[main.toLowerCase()];
  let event: KeyEvent;
  if (named) {
    event = { key: named.key, code: named.code, keyCode: named.keyCode, modifiers: bits };
    if (named.text && (bits & ~8) === 0) event.text = named.text;
  } else if ([...main].length === 1) {
    const char = main;
    const upper = char.toUpperCase();
    const letter = /^[a-z]$/i.test(char);
    const digit = /^[0-9]$/.test(char);
    const shifted = (bits & 8) !== 0 && letter ? upper : char;
    event = {
      key: shifted,
      code: letter ? `Key${upper}` : digit ? `Digit${char}` : char === ' ' ? 'Space' : '',
      keyCode: letter ? upper.charCodeAt(0) : digit ? char.charCodeAt(0) : 0,
      modifiers: bits,
    };
    // A printable key types its character unless Control, Alt or Meta turn it into a shortcut.
    if ((bits & 7) === 0) event.text = shifted;
    const command = SHORTCUT_COMMANDS[char.toLowerCase()];
    if ((bits & 2) !== 0 && command) event.commands = [command];
  } else {
    throw new AgentError(
      'invalid',
      `"${main}" is not a key name; use a single character or one of Enter, Tab, Escape, Backspace, Delete, Space, ArrowUp, ArrowDown, ArrowLeft, ArrowRight, Home, End, PageUp, PageDown, F1–F12, with modifiers joined by + ("Shift+Tab")`,
    );
  }
  return { modifiers, event };
}
