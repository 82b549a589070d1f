// The command line of `gateway browse` (docs/gateway.md, "browse"), in plain JavaScript for the
// launcher (proxy/cli/browse-client.mjs says why): the verb table, which proxy/cli/browse.ts turns
// into commander commands for help and usage errors, and a parser for well-formed command lines
// (anything else returns null and commander answers). Only node: built-ins may be imported here.

export const DEFAULT_SESSION = 'default';
export const DEFAULT_IDLE_MINUTES = 5;
/** The clamp of --idle-minutes (fractions allowed; 0.01 minutes is 0.6 s). */
export const MIN_IDLE_MINUTES = 0.01;
export const MAX_IDLE_MINUTES = 30;
const SESSION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** A failure to report and exit with: 1 at run time, 2 when the command line is wrong. */
export class BrowseError extends Error {
  constructor(message, usage = false) {
    super(message);
    this.usage = usage;
  }
}

// The command line. Options of `browse` itself are accepted before or after the verb (as commander
// does for a parent command's options); a verb's own options after it.
export const COMMON_OPTIONS = [
  {
    flag: '--session',
    key: 'session',
    value: 'name',
    type: 'session',
    description: `which browser: separate names run separate browsers (default "${DEFAULT_SESSION}")`,
  },
  {
    flag: '--endpoint',
    key: 'endpoint',
    value: 'url',
    description: 'gateway base URL, a /v1/connect URL or a browser /devtools/ URL (default: GW_ENDPOINT, then the saved login)',
  },
  { flag: '--token', key: 'token', value: 'token', description: 'the token it expects (default: GW_TOKEN, then the saved login)' },
  { flag: '--json', key: 'json', description: 'print one JSON object, {"ok":true,"result":…}, instead of text' },
  {
    flag: '--idle-minutes',
    key: 'idleMinutes',
    value: 'n',
    type: 'minutes',
    description: `close the browser after this long without a command (default ${DEFAULT_IDLE_MINUTES}; fractions allowed, clamped to ${MIN_IDLE_MINUTES}–${MAX_IDLE_MINUTES}); set when the browser opens`,
  },
];

const REF = { name: 'ref', required: true, description: 'an element ref from the latest snapshot, e.g. @e4 (the @ is optional)' };

export const VERBS = [
  {
    name: 'open',
    usage: '<url>',
    summary: 'go to a page; print its clickable and typeable elements',
    args: [{ name: 'url', required: true, description: 'the address, e.g. https://example.com' }],
  },
  { name: 'snapshot', usage: '', summary: 'list the elements again, labelled e1, e2, …', args: [] },
  { name: 'click', usage: '@eN', summary: 'click an element', args: [REF] },
  {
    name: 'fill',
    usage: '@eN <text>',
    summary: 'replace the text of a field',
    args: [REF, { name: 'text', required: true, description: 'the new text ("" empties the field)' }],
  },
  {
    name: 'type',
    usage: '@eN <text>',
    summary: 'type into a field without clearing it',
    args: [REF, { name: 'text', required: true, description: 'the text to add' }],
  },
  {
    name: 'press',
    usage: '[@eN] <key>',
    summary: 'press a key (Enter, Tab, Escape, Control+a, …), on an element or the page',
    args: [
      { name: 'ref-or-key', required: true, description: 'the key; or, followed by the key, the element to focus first' },
      { name: 'key', required: false, description: 'the key, when an element is given' },
    ],
  },
  { name: 'check', usage: '@eN', summary: 'tick a checkbox', args: [REF] },
  { name: 'uncheck', usage: '@eN', summary: 'untick a checkbox', args: [REF] },
  {
    name: 'select',
    usage: '@eN <option>',
    summary: 'choose an option of a select',
    args: [REF, { name: 'option', required: true, description: "the option's visible text or value" }],
  },
  { name: 'hover', usage: '@eN', summary: 'move the mouse over an element', args: [REF] },
  {
    name: 'scroll',
    usage: 'up|down',
    summary: 'scroll the page',
    args: [{ name: 'direction', required: true, choices: ['up', 'down'], description: 'up or down' }],
  },
  {
    name: 'extract',
    usage: '',
    summary: "the page's content as markdown, text or links",
    args: [],
    options: [{ flag: '--format', key: 'format', value: 'format', choices: ['markdown', 'text', 'links'], description: 'markdown (default), text or links' }],
  },
  {
    name: 'screenshot',
    usage: '[@eN]',
    summary: 'write a JPEG of the view, one element or the whole page; print its path',
    args: [{ name: 'ref', required: false, description: 'an element to capture instead of the view' }],
    options: [
      { flag: '--full', key: 'full', description: 'the whole page, not only the view' },
      { flag: '--changed', key: 'changed', description: 'write no file when nothing changed since the previous screenshot' },
      { flag: '--out', key: 'out', value: 'path', description: 'the file to write (default: screenshot-<time>.jpg in the current directory)' },
    ],
  },
  {
    name: 'wait',
    usage: '[text]',
    summary: 'wait until text appears (or a selector, or an address)',
    args: [{ name: 'text', required: false, description: 'text to wait for on the page' }],
    options: [
      { flag: '--selector', key: 'selector', value: 'css', description: 'wait until an element matching this CSS selector is visible' },
      { flag: '--url', key: 'url', value: 'text', description: 'wait until the address contains this' },
      { flag: '--timeout', key: 'timeout', value: 'ms', type: 'ms', description: 'give up after this many milliseconds (default 5000, at most 30000)' },
    ],
    check: (args, flags) => (args[0] === undefined && !flags.selector && !flags.url ? 'wait needs text, --selector or --url' : null),
  },
  {
    name: 'tabs',
    usage: '[list|new|select|close]',
    summary: 'list, open, switch to or close tabs',
    args: [
      { name: 'action', required: false, choices: ['list', 'new', 'select', 'close'], description: 'list (default), new, select or close' },
      { name: 'target', required: false, description: 'new: an address to open; select, close: the tab id (or its start) from tabs list' },
    ],
    check: (args) => {
      const [action = 'list', target] = args;
      if ((action === 'select' || action === 'close') && target === undefined) return `tabs ${action} needs the tab id (from gateway browse tabs)`;
      if (action === 'list' && target !== undefined) return 'tabs list takes no argument';
      return null;
    },
  },
  {
    name: 'eval',
    usage: '<expression>',
    summary: 'run JavaScript in the page and print the result as JSON',
    args: [{ name: 'expression', required: true, description: 'a JavaScript expression; promises are awaited (10 s at most)' }],
  },
  { name: 'observe', usage: '', summary: 'console output, failed requests, downloads and dialogs since the last look', args: [] },
  { name: 'close', usage: '', summary: 'close the browser (and its daemon)', args: [] },
  { name: 'sessions', usage: '', summary: 'list the running browse sessions', args: [] },
];

const VERB_BY_NAME = new Map(VERBS.map((verb) => [verb.name, verb]));
const COMMON_BY_FLAG = new Map(COMMON_OPTIONS.map((option) => [option.flag, option]));

export function validSession(name) {
  return typeof name === 'string' && SESSION_NAME.test(name);
}

/** --idle-minutes: a positive number of minutes, or null. */
export function parseMinutes(text) {
  const value = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(text) ? Number(text) : NaN;
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** --timeout: a positive whole number of milliseconds, or null. */
export function parseMs(text) {
  return /^\d{1,9}$/.test(text) && Number(text) > 0 ? Number(text) : null;
}

/** An option's value as the request carries it, or null when it is not valid. */
export function optionValue(option, text) {
  if (option.choices && !option.choices.includes(text)) return null;
  if (option.type === 'minutes') return parseMinutes(text);
  if (option.type === 'ms') return parseMs(text);
  if (option.type === 'session') return validSession(text) ? text : null;
  return text;
}

/** The request of a verb's parsed arguments and options, or a usage error. */
export function checkRequest(verbName, args, flags) {
  const verb = VERB_BY_NAME.get(verbName);
  if (!verb) return { error: `unknown verb '${verbName}'` };
  const required = verb.args.filter((a) => a.required).length;
  if (args.length < required) return { error: `missing argument '${verb.args[args.length].name}'` };
  if (args.length > verb.args.length) return { error: 'too many arguments' };
  for (const [i, arg] of args.entries())
    if (verb.args[i].choices && !verb.args[i].choices.includes(arg)) return { error: `${verb.args[i].name} must be one of ${verb.args[i].choices.join(', ')}` };
  const problem = verb.check?.(args, flags);
  if (problem) return { error: problem };
  return { request: { verb: verb.name, args, flags } };
}

/**
 * A well-formed browse command line (the words after `browse`) as a request; null for anything
 * else (help, an unknown verb or option, a missing or invalid value), which commander then answers
 * with its usage error. Whatever this accepts, commander accepts alike (proxy/cli/browse.test.ts).
 */
export function parseBrowseArgs(argv) {
  const flags = { session: DEFAULT_SESSION, json: false };
  const args = [];
  let verb = null;
  let rest = false;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (rest || !token.startsWith('-') || token === '-') {
      if (verb) args.push(token);
      else if (!(verb = VERB_BY_NAME.get(token) ?? null)) return null;
      continue;
    }
    if (token === '--') {
      if (!verb) return null;
      rest = true;
      continue;
    }
    const eq = token.startsWith('--') ? token.indexOf('=') : -1;
    const name = eq > 0 ? token.slice(0, eq) : token;
    const option = COMMON_BY_FLAG.get(name) ?? verb?.options?.find((o) => o.flag === name);
    if (!option) return null;
    if (option.value) {
      const text = eq > 0 ? token.slice(eq + 1) : argv[++i];
      if (text === undefined) return null;
      const value = optionValue(option, text);
      if (value === null) return null;
      flags[option.key] = value;
    } else {
      if (eq > 0) return null;
      flags[option.key] = true;
    }
  }
  if (!verb) return null;
  const checked = checkRequest(verb.name, args, flags);
  return checked.request ?? null;
}
