// The client half of `gateway browse` (docs/gateway.md, "browse"), in plain JavaScript so that the
// launcher (proxy/cli/gateway.mjs) can run a browse command without loading tsx, commander or the
// agent toolkit: a warm `browse snapshot` then costs one Node start and a round trip on a Unix
// socket. It holds the verb table (which proxy/cli/browse.ts turns into commander commands, for
// help and usage errors), a parser for well-formed command lines (anything else returns null and
// commander answers), where each session's socket lives and the checks on that directory, starting
// the daemon (proxy/cli/browse-daemon.ts), the newline-delimited JSON exchange, and the output.
// Only node: built-ins may be imported here.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROTOCOL = 1;
export const DEFAULT_SESSION = 'default';
export const DEFAULT_IDLE_MINUTES = 5;
/** The clamp of --idle-minutes (fractions allowed; 0.01 minutes is 0.6 s). */
export const MIN_IDLE_MINUTES = 0.01;
export const MAX_IDLE_MINUTES = 30;
/** How long a starting daemon may take to listen (the first run after an install also compiles the sources). */
export const START_TIMEOUT_MS = 30_000;
/** How long a command waits for its answer: opening a routed browser may queue, then the page may load slowly. */
export const ANSWER_TIMEOUT_MS = 300_000;
/** A Unix socket path's limit, with its NUL: 104 bytes on macOS, 108 on Linux; the smaller one counts. */
const MAX_SOCKET_PATH = 103;
const SESSION_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

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
  { flag: '--session', key: 'session', value: 'name', type: 'session', description: `which browser: separate names run separate browsers (default "${DEFAULT_SESSION}")` },
  { flag: '--endpoint', key: 'endpoint', value: 'url', description: 'gateway base URL, a /v1/connect URL or a browser /devtools/ URL (default: GW_ENDPOINT, then the saved login)' },
  { flag: '--token', key: 'token', value: 'token', description: 'the token it expects (default: GW_TOKEN, then the saved login)' },
  { flag: '--json', key: 'json', description: 'print one JSON object, {"ok":true,"result":…}, instead of text' },
  { flag: '--idle-minutes', key: 'idleMinutes', value: 'n', type: 'minutes', description: `close the browser after this long without a command (default ${DEFAULT_IDLE_MINUTES}; fractions allowed, clamped to ${MIN_IDLE_MINUTES}–${MAX_IDLE_MINUTES}); set when the browser opens` },
];

const REF = { name: 'ref', required: true, description: 'an element ref from the latest snapshot, e.g. @e4 (the @ is optional)' };

export const VERBS = [
  { name: 'open', usage: '<url>', summary: 'go to a page; print its clickable and typeable elements', args: [{ name: 'url', required: true, description: 'the address, e.g. https://example.com' }] },
  { name: 'snapshot', usage: '', summary: 'list the elements again, labelled e1, e2, …', args: [] },
  { name: 'click', usage: '@eN', summary: 'click an element', args: [REF] },
  { name: 'fill', usage: '@eN <text>', summary: 'replace the text of a field', args: [REF, { name: 'text', required: true, description: 'the new text ("" empties the field)' }] },
  { name: 'type', usage: '@eN <text>', summary: 'type into a field without clearing it', args: [REF, { name: 'text', required: true, description: 'the text to add' }] },
  {
    name: 'press', usage: '[@eN] <key>', summary: 'press a key (Enter, Tab, Escape, Control+a, …), on an element or the page',
    args: [{ name: 'ref-or-key', required: true, description: 'the key; or, followed by the key, the element to focus first' }, { name: 'key', required: false, description: 'the key, when an element is given' }],
  },
  { name: 'check', usage: '@eN', summary: 'tick a checkbox', args: [REF] },
  { name: 'uncheck', usage: '@eN', summary: 'untick a checkbox', args: [REF] },
  { name: 'select', usage: '@eN <option>', summary: 'choose an option of a select', args: [REF, { name: 'option', required: true, description: 'the option\'s visible text or value' }] },
  { name: 'hover', usage: '@eN', summary: 'move the mouse over an element', args: [REF] },
  { name: 'scroll', usage: 'up|down', summary: 'scroll the page', args: [{ name: 'direction', required: true, choices: ['up', 'down'], description: 'up or down' }] },
  {
    name: 'extract', usage: '', summary: 'the page\'s content as markdown, text or links', args: [],
    options: [{ flag: '--format', key: 'format', value: 'format', choices: ['markdown', 'text', 'links'], description: 'markdown (default), text or links' }],
  },
  {
    name: 'screenshot', usage: '[@eN]', summary: 'write a JPEG of the view, one element or the whole page; print its path',
    args: [{ name: 'ref', required: false, description: 'an element to capture instead of the view' }],
    options: [
      { flag: '--full', key: 'full', description: 'the whole page, not only the view' },
      { flag: '--changed', key: 'changed', description: 'write no file when nothing changed since the previous screenshot' },
      { flag: '--out', key: 'out', value: 'path', description: 'the file to write (default: screenshot-<time>.jpg in the current directory)' },
    ],
  },
  {
    name: 'wait', usage: '[text]', summary: 'wait until text appears (or a selector, or an address)',
    args: [{ name: 'text', required: false, description: 'text to wait for on the page' }],
    options: [
      { flag: '--selector', key: 'selector', value: 'css', description: 'wait until an element matching this CSS selector is visible' },
      { flag: '--url', key: 'url', value: 'text', description: 'wait until the address contains this' },
      { flag: '--timeout', key: 'timeout', value: 'ms', type: 'ms', description: 'give up after this many milliseconds (default 5000, at most 30000)' },
    ],
    check: (args, flags) => (args[0] === undefined && !flags.selector && !flags.url ? 'wait needs text, --selector or --url' : null),
  },
  {
    name: 'tabs', usage: '[list|new|select|close]', summary: 'list, open, switch to or close tabs',
    args: [{ name: 'action', required: false, choices: ['list', 'new', 'select', 'close'], description: 'list (default), new, select or close' }, { name: 'target', required: false, description: 'new: an address to open; select, close: the tab id (or its start) from tabs list' }],
    check: (args) => {
      const [action = 'list', target] = args;
      if ((action === 'select' || action === 'close') && target === undefined) return `tabs ${action} needs the tab id (from gateway browse tabs)`;
      if (action === 'list' && target !== undefined) return 'tabs list takes no argument';
      return null;
    },
  },
  { name: 'eval', usage: '<expression>', summary: 'run JavaScript in the page and print the result as JSON', args: [{ name: 'expression', required: true, description: 'a JavaScript expression; promises are awaited (10 s at most)' }] },
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
  for (const [i, arg] of args.entries()) if (verb.args[i].choices && !verb.args[i].choices.includes(arg)) return { error: `${verb.args[i].name} must be one of ${verb.args[i].choices.join(', ')}` };
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

// Where the sockets live. The data directory follows proxy/gateway/config-path.ts (GW_DATA_DIR, else
// /data inside Docker, else ~/.browser-gateway; proxy/cli/browse.test.ts checks the two agree); the
// sockets go in its `browse/` folder, or, when a socket path there would be too long for a Unix
// socket, in a folder of the user's own under the system's temporary directory (or under /tmp, when
// that directory's own path is long, as macOS's per-user one is).

export function dataDirOf(env, cwd = process.cwd()) {
  if (env.GW_DATA_DIR) return path.resolve(cwd, env.GW_DATA_DIR);
  if (existsSync('/.dockerenv')) return '/data';
  return path.join(os.homedir(), '.browser-gateway');
}

/** The folders a data directory's sessions may use: the preferred one, then the short ones. */
export function socketDirs(dataDir) {
  const uid = process.getuid?.() ?? 0;
  const tag = createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
  const short = [...new Set([os.tmpdir(), '/tmp'])].map((tmp) => path.join(tmp, `gw-browse-${uid}-${tag}`));
  return [path.join(dataDir, 'browse'), ...short];
}

/** A session's socket, log and "closed" note, in the first folder where the socket path fits. */
export function sessionFiles(dataDir, session) {
  if (!validSession(session)) throw new BrowseError(`"${session}" is not a session name: use 1 to 64 letters, digits, - or _`, true);
  const dir = socketDirs(dataDir).find((d) => Buffer.byteLength(path.join(d, `${session}.sock`)) <= MAX_SOCKET_PATH);
  if (!dir) throw new BrowseError(`the socket path of session "${session}" would be longer than ${MAX_SOCKET_PATH} bytes; use a shorter --session name or a shorter GW_DATA_DIR`, true);
  return { dir, socket: path.join(dir, `${session}.sock`), log: path.join(dir, `${session}.log`), closed: path.join(dir, `${session}.closed`) };
}

/**
 * The socket folder must be a real directory (not a symbolic link), owned by this user, with no
 * access for group or others: whoever can reach a session's socket drives its browser and reads
 * the token the commands send.
 */
export function checkDir(dir) {
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink()) throw new BrowseError(`${dir} is a symbolic link; refusing to use it for browser sockets (remove it, then try again)`);
  if (!stat.isDirectory()) throw new BrowseError(`${dir} is not a directory; refusing to use it for browser sockets`);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw new BrowseError(`${dir} belongs to another user (uid ${stat.uid}); refusing to use it for browser sockets`);
  if ((stat.mode & 0o077) !== 0) throw new BrowseError(`${dir} is open to other users (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}); it must be 0700: chmod 700 it, or remove it`);
}

/** Creates the socket folder 0700 (and the data directory, 0700, if missing), then checks it. */
export function ensureDir(dir) {
  mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
  }
  checkDir(dir);
}

/** The socket as a socket of this user; a symbolic link or another kind of file there is refused. */
function checkSocket(file) {
  const stat = lstatSync(file);
  const uid = process.getuid?.();
  if (!stat.isSocket() || (uid !== undefined && stat.uid !== uid)) throw new BrowseError(`${file} is not a socket of this user; refusing to connect to it (remove it, then try again)`);
  return stat;
}

/** Connects to a socket; resolves null when nothing listens there (no file, or a stale one). */
export function connectTo(file) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(file);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      socket.on('error', () => {}); // exchange() reports errors from here on
      resolve(socket);
    });
    socket.once('error', (error) => {
      socket.destroy();
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else reject(new BrowseError(`could not connect to ${file}: ${error.message}`));
    });
  });
}

/** Connects to a running daemon of a session; null when none runs. The folder is checked first. */
async function connectDaemon(files) {
  try {
    checkDir(files.dir);
    checkSocket(files.socket);
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw error;
  }
  return connectTo(files.socket);
}

/** Sends one request, resolves with the one answer; the connection is closed after it. */
export function exchange(socket, request, timeoutMs = ANSWER_TIMEOUT_MS) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let done = false;
    const finish = (error, answer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer);
    };
    const timer = setTimeout(() => finish(new BrowseError(`no answer from the browse session within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      const end = chunk.indexOf('\n');
      chunks.push(end < 0 ? chunk : chunk.slice(0, end));
      if (end < 0) return;
      try {
        finish(null, JSON.parse(chunks.join('')));
      } catch {
        finish(new BrowseError('the browse session answered something that is not JSON'));
      }
    });
    socket.on('error', (error) => finish(new BrowseError(`the browse session's connection failed: ${error.message}`)));
    socket.on('close', () => finish(new BrowseError('the browse session ended without answering')));
    socket.write(`${JSON.stringify(request)}\n`);
  });
}

const LAUNCHER = fileURLToPath(new URL('./gateway.mjs', import.meta.url));

/** The last lines of a daemon's log, for an error message. */
function logTail(file) {
  try {
    const fd = openSync(file, constants.O_RDONLY | NOFOLLOW);
    try {
      const text = readFileSync(fd, 'utf8').trim();
      return text.split('\n').slice(-8).join('\n');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}

/**
 * Starts a session's daemon, detached, its output going to the session's log, and connects to it
 * once it listens. A daemon that finds another already listening exits with 0 (two commands
 * started one each): then the other one is used.
 */
async function startDaemon(files, session, dataDir, env) {
  ensureDir(files.dir);
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (let attempt = 1; ; attempt++) {
    const child = spawnDaemon(files, session, dataDir, env);
    for (;;) {
      const socket = existsSync(files.socket) ? await connectDaemon(files) : null;
      if (socket) return socket;
      const failed = child.failed();
      // Exit code 0: another daemon was listening (a command beside this one started it); it is
      // used, unless it was closing and is gone too, when this one starts a new one (3 tries).
      if (failed === 'lost' && attempt < 3) {
        const other = existsSync(files.socket) ? await connectDaemon(files) : null;
        if (other) return other;
        break;
      }
      if (failed || Date.now() > deadline) {
        const tail = logTail(files.log);
        const why = failed === 'lost' ? 'another daemon of this session kept appearing and going away' : failed ?? `it was not listening after ${START_TIMEOUT_MS / 1000} s`;
        throw new BrowseError(`the browse session "${session}" did not start: ${why}${tail ? `\n${tail}` : ''}\n(log: ${files.log})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

function spawnDaemon(files, session, dataDir, env) {
  // Appended to: a daemon that finds another one running must not wipe that one's log. The daemon
  // that gets to listen empties it first.
  const log = openSync(files.log, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | NOFOLLOW, 0o600);
  // The daemon gets the endpoint and token with each request, never through its argv or environment.
  const { GW_ENDPOINT: _endpoint, GW_TOKEN: _token, ...rest } = env;
  let child;
  try {
    child = spawn(process.execPath, [LAUNCHER, 'browse-daemon', '--session', session], {
      detached: true,
      stdio: ['ignore', log, log],
      cwd: os.homedir() || '/',
      env: { ...rest, GW_DATA_DIR: dataDir },
    });
  } finally {
    closeSync(log);
  }
  let failed = null;
  child.once('error', (error) => (failed = `could not start it: ${error.message}`));
  child.once('exit', (code, signal) => (failed = code === 0 ? 'lost' : `it exited (${signal ?? `code ${code}`})`));
  child.unref();
  return { failed: () => failed };
}

// Output.

function painter(stream, env) {
  const on = stream.isTTY === true && !env.NO_COLOR;
  return (open, close) => (text) => (on ? `\x1b[${open}m${text}\x1b[${close}m` : text);
}

function write(stream, text) {
  if (text === '') return;
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
}

function timestamp(date) {
  const pad = (n, width = 2) => String(n).padStart(width, '0');
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}-${pad(date.getMilliseconds(), 3)}`;
}

/** Writes a screenshot: to --out (replacing it), or to a new screenshot-<time>.jpg in the current directory. */
function saveScreenshot(image, out, cwd) {
  if (out) {
    const file = path.resolve(cwd, out);
    const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o644);
    try {
      writeFileSync(fd, image);
    } finally {
      closeSync(fd);
    }
    return file;
  }
  const base = path.join(cwd, `screenshot-${timestamp(new Date())}`);
  for (let n = 0; ; n++) {
    const file = `${base}${n ? `-${n}` : ''}.jpg`;
    let fd;
    try {
      fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
    } catch (error) {
      if (error.code === 'EEXIST' && n < 100) continue;
      throw error;
    }
    try {
      writeFileSync(fd, image);
    } finally {
      closeSync(fd);
    }
    return file;
  }
}

/** Prints an answer; resolves to the exit code. */
function render(request, answer, io) {
  const red = painter(io.stderr, io.env)(31, 39);
  const yellow = painter(io.stderr, io.env)(33, 39);
  for (const note of answer.notes ?? []) write(io.stderr, `${yellow('note:')} ${note}`);
  if (!answer.ok) {
    if (request.flags.json) write(io.stdout, JSON.stringify({ ok: false, error: answer.error }));
    write(io.stderr, `${red('error:')} ${answer.error}`);
    return answer.usage ? 2 : 1;
  }
  let result = answer.result;
  if (request.verb === 'screenshot' && result.image) {
    const image = Buffer.from(result.image, 'base64');
    let file;
    try {
      file = saveScreenshot(image, request.flags.out, io.cwd);
    } catch (error) {
      throw new BrowseError(`could not write the screenshot: ${error.message}`);
    }
    result = { path: file, bytes: image.length, note: result.note, url: result.url };
    if (!request.flags.json) write(io.stdout, file);
  } else if (!request.flags.json) {
    write(io.stdout, result.text ?? result.note ?? '');
  }
  if (request.flags.json) write(io.stdout, JSON.stringify({ ok: true, result }));
  return 0;
}

// `sessions`: every socket of this data directory is asked for its state; stale ones are removed.

async function sessionStates(dataDir, problems) {
  const states = [];
  for (const dir of socketDirs(dataDir)) {
    let names;
    try {
      checkDir(dir);
      names = readdirSync(dir);
    } catch (error) {
      if (error.code === 'ENOENT') continue;
      if (!(error instanceof BrowseError)) throw error;
      problems.push(`${error.message}; its sessions are not listed`);
      continue;
    }
    for (const entry of names.sort()) {
      const name = entry.endsWith('.sock') ? entry.slice(0, -5) : '';
      if (!validSession(name)) continue;
      const file = path.join(dir, entry);
      let before;
      try {
        before = checkSocket(file);
      } catch {
        continue;
      }
      const socket = await connectTo(file).catch(() => null);
      if (!socket) {
        // Nothing listens: a daemon that died without cleaning up. Removed unless replaced meanwhile.
        try {
          if (lstatSync(file).ino === before.ino) unlinkSync(file);
        } catch {
          // already gone
        }
        continue;
      }
      try {
        const answer = await exchange(socket, { v: PROTOCOL, verb: 'status', args: [], flags: { session: name } }, 5_000);
        states.push(answer.ok ? answer.result : { session: name, error: answer.error });
      } catch (error) {
        states.push({ session: name, error: error.message });
      }
    }
  }
  return states;
}

function describeState(state) {
  if (state.error) return `${state.session}  (not answering: ${state.error})`;
  const left = state.idleCloseAt ? `${Math.max(0, (Date.parse(state.idleCloseAt) - Date.now()) / 60_000).toFixed(1)} min left` : 'no browser yet';
  return [state.session, `pid ${state.pid}`, state.endpoint ?? '(no endpoint yet)', left, state.url ?? ''].filter(Boolean).join('  ');
}

async function listSessions(request, io, dataDir) {
  const problems = [];
  const states = await sessionStates(dataDir, problems);
  const yellow = painter(io.stderr, io.env)(33, 39);
  for (const problem of problems) write(io.stderr, `${yellow('note:')} ${problem}`);
  if (request.flags.json) write(io.stdout, JSON.stringify({ ok: true, result: { sessions: states } }));
  else write(io.stdout, states.length === 0 ? 'No browse session is running.' : states.map(describeState).join('\n'));
  return 0;
}

/**
 * Runs a parsed browse request: sessions are listed here; every other verb goes to its session's
 * daemon, started first when none runs (except for `close`). Resolves to the exit code.
 */
export async function execute(request, io = { env: process.env, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr }) {
  const { env } = io;
  try {
    const dataDir = dataDirOf(env, io.cwd);
    if (request.verb === 'sessions') return await listSessions(request, io, dataDir);
    const session = request.flags.session;
    const files = sessionFiles(dataDir, session);
    let socket = await connectDaemon(files);
    // Progress while a browser starts (a fresh session: the daemon, then the browser, maybe queued
    // at the gateway): said on stderr once a second has passed without an answer.
    let progress = null;
    if (!socket) {
      if (request.verb === 'close') {
        // A note of how the last browser ended is of no use after an explicit close.
        try {
          unlinkSync(files.closed);
        } catch {
          // there was none
        }
        if (request.flags.json) write(io.stdout, JSON.stringify({ ok: true, result: { closed: false, text: `No browser is open in session "${session}".` } }));
        else write(io.stdout, `No browser is open in session "${session}".`);
        return 0;
      }
      // Without an endpoint anywhere no browser can open: said here, before a daemon starts to say it.
      if (!request.flags.endpoint && !env.GW_ENDPOINT && !existsSync(path.join(dataDir, 'credentials.json'))) {
        throw new BrowseError('not logged in (no endpoint): pass --endpoint <url>, set GW_ENDPOINT, or run gateway login --endpoint <url> --token <token>');
      }
      progress = setTimeout(() => write(io.stderr, `starting the browser of session "${session}"…`), 1_000);
      socket = await startDaemon(files, session, dataDir, env).catch((error) => {
        clearTimeout(progress);
        throw error;
      });
    }
    const answer = await exchange(socket, { v: PROTOCOL, ...request, env: { GW_ENDPOINT: env.GW_ENDPOINT, GW_TOKEN: env.GW_TOKEN } }).finally(() => clearTimeout(progress));
    return render(request, answer, io);
  } catch (error) {
    const message = error instanceof BrowseError ? error.message : `unexpected failure: ${error.stack ?? error}`;
    if (request.flags.json) write(io.stdout, JSON.stringify({ ok: false, error: message }));
    write(io.stderr, `${painter(io.stderr, env)(31, 39)('error:')} ${message}`);
    return error instanceof BrowseError && error.usage ? 2 : 1;
  }
}
