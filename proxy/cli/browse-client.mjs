// The client half of `gateway browse` (docs/gateway.md, "browse"), in plain JavaScript so that the
// launcher (proxy/cli/gateway.mjs) can run a browse command without loading tsx, commander or the
// agent toolkit: a warm `browse snapshot` then costs one Node start and a round trip on a Unix
// socket. It holds where each session's socket lives and the checks on that directory, starting
// the daemon (proxy/cli/browse-daemon.ts) and the newline-delimited JSON exchange; the verb table
// and the command-line parser are in browse-args.mjs, the output in browse-output.mjs. Only node:
// built-ins and this folder's other plain-JavaScript files may be imported here.
import { spawn } from 'node:child_process';
import { closeSync, constants, existsSync, lstatSync, openSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BrowseError, validSession } from './browse-args.mjs';
import { checkDir, checkSocket, connectDaemon, connectTo, dataDirOf, ensureDir, exchange, PROTOCOL, sessionFiles, socketDirs } from './browse-wire.mjs';
import { painter, render, write } from './browse-output.mjs';

/** How long a starting daemon may take to listen (the first run after an install also compiles the sources). */
export const START_TIMEOUT_MS = 30_000;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

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
        const why =
          failed === 'lost'
            ? 'another daemon of this session kept appearing and going away'
            : (failed ?? `it was not listening after ${START_TIMEOUT_MS / 1000} s`);
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
    const answer = await exchange(socket, { v: PROTOCOL, ...request, env: { GW_ENDPOINT: env.GW_ENDPOINT, GW_TOKEN: env.GW_TOKEN } }).finally(() =>
      clearTimeout(progress),
    );
    return render(request, answer, io);
  } catch (error) {
    const message = error instanceof BrowseError ? error.message : `unexpected failure: ${error.stack ?? error}`;
    if (request.flags.json) write(io.stdout, JSON.stringify({ ok: false, error: message }));
    write(io.stderr, `${painter(io.stderr, env)(31, 39)('error:')} ${message}`);
    return error instanceof BrowseError && error.usage ? 2 : 1;
  }
}
