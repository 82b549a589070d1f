// Where a `gateway browse` session's socket lives, the checks on its folder, connecting to it, and
// the newline-delimited JSON exchange on it: shared by the client (browse-client.mjs) and the
// daemon (browse-daemon.ts). Plain JavaScript, for the launcher; only node: built-ins and this
// folder's plain-JavaScript files.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BrowseError, validSession } from './browse-args.mjs';

export const PROTOCOL = 1;
/** How long a command waits for its answer: opening a routed browser may queue, then the page may load slowly. */
export const ANSWER_TIMEOUT_MS = 300_000;
/** A Unix socket path's limit, with its NUL: 104 bytes on macOS, 108 on Linux; the smaller one counts. */
const MAX_SOCKET_PATH = 103;

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
  if (!dir)
    throw new BrowseError(
      `the socket path of session "${session}" would be longer than ${MAX_SOCKET_PATH} bytes; use a shorter --session name or a shorter GW_DATA_DIR`,
      true,
    );
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
  if ((stat.mode & 0o077) !== 0)
    throw new BrowseError(
      `${dir} is open to other users (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}); it must be 0700: chmod 700 it, or remove it`,
    );
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
export function checkSocket(file) {
  const stat = lstatSync(file);
  const uid = process.getuid?.();
  if (!stat.isSocket() || (uid !== undefined && stat.uid !== uid))
    throw new BrowseError(`${file} is not a socket of this user; refusing to connect to it (remove it, then try again)`);
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
export async function connectDaemon(files) {
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
