// The browser `gateway mcp` starts for itself when it is given no --cdp-endpoint: a Chromium or
// Chrome of this machine, started on first use (an agent tool starts its MCP servers with every
// conversation, and most never open a browser) and started again if it was closed. Each launch
// gets a temporary directory of its own, holding the profile and Chromium's TMPDIR (where Chromium
// leaves its singleton socket even after a clean exit); stop() ends the browser and every helper
// process, then removes that directory. Where that socket's path would be longer than a Unix
// socket's (a long TMPDIR, as macOS gives each user), Chromium's TMPDIR is a directory of its own
// under /tmp instead, removed with the other.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AgentError } from '../agent/types';
import { startChromium, type ChromiumProcess } from '../browsers/launch';
import type { Env } from './data-dir';
import { err } from './output';

/** Where a browser is looked for, in order, when CHROMIUM_PATH is not set. */
export const CHROMIUM_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

const LAUNCH_TIMEOUT_MS = 30_000;
/**
 * Between SIGTERM and SIGKILL to the whole process group: none. The profile is removed right after,
 * so Chromium's orderly shutdown (flushing it) buys nothing, and MCP clients do not wait for it: the
 * SDK's client sends SIGTERM 2 s after it closed our stdin and SIGKILL 2 s later, which on a loaded
 * machine came before the directory was removed and left it behind.
 */
const STOP_GRACE_MS = 0;

export function findChromium(env: Env = process.env): string {
  if (env.CHROMIUM_PATH) {
    if (!existsSync(env.CHROMIUM_PATH))
      throw new AgentError(
        'browser',
        `no browser at CHROMIUM_PATH (${env.CHROMIUM_PATH}); the user should set CHROMIUM_PATH to the executable of Chromium or Chrome`,
      );
    return env.CHROMIUM_PATH;
  }
  const found = CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new AgentError(
      'browser',
      `no Chromium or Chrome found on this machine (looked at ${CHROMIUM_CANDIDATES.join(', ')}); the user should set CHROMIUM_PATH to the browser's executable, or start gateway mcp with --cdp-endpoint <url> of a running browser`,
    );
  }
  return found;
}

/**
 * Headless when asked, and also on Linux without a display (neither DISPLAY nor WAYLAND_DISPLAY
 * set: a server, a container, an SSH session), where a browser with a window could not start.
 */
export function headlessFor(asked: boolean, env: Env = process.env, platform: NodeJS.Platform = process.platform): boolean {
  return asked || (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY);
}

interface Running {
  wsUrl: string;
  stop(): Promise<void>;
}

export class LocalChromium {
  private running: Promise<Running> | null = null;
  private stopped = false;

  constructor(readonly headless: boolean) {}

  /** The browser's DevTools WebSocket address; the first call starts it (so does the first after it exited). */
  wsUrl(): Promise<string> {
    if (this.stopped) return Promise.reject(new AgentError('closed', 'the MCP server is stopping'));
    if (!this.running) {
      const running = launch(this.headless, () => {
        if (this.running === running) this.running = null;
      });
      this.running = running;
      // The tool's answer carries the reason to the model; the user reads it in the client's log.
      running.catch((error: Error) => {
        err(`gateway mcp: ${error.message}`);
        if (this.running === running) this.running = null;
      });
    }
    return this.running.then((browser) => browser.wsUrl);
  }

  /** Ends the browser (waiting for a launch under way) and removes its directory; no launch after. */
  async stop(): Promise<void> {
    this.stopped = true;
    const running = this.running;
    this.running = null;
    await (await running?.catch(() => null))?.stop();
  }
}

/** A Unix socket path's limit, with its NUL: 104 bytes on macOS, 108 on Linux; the smaller one counts. */
const MAX_SOCKET_PATH = 103;
/** Where Chromium puts its singleton socket under its TMPDIR (six random characters in the name). */
const SINGLETON_SOCKET = '/org.chromium.Chromium.XXXXXX/SingletonSocket';

/** Chromium's TMPDIR: `tmp` in the launch's directory, or under /tmp where that is too long for its socket. */
function chromiumTmp(dir: string): string {
  const inside = path.join(dir, 'tmp');
  if (inside.length + SINGLETON_SOCKET.length <= MAX_SOCKET_PATH) {
    mkdirSync(inside);
    return inside;
  }
  return mkdtempSync('/tmp/gateway-mcp-tmp-');
}

/** Starts one browser; `onExit` is called once it has exited and its directory is gone, however it ended. */
async function launch(headless: boolean, onExit: () => void): Promise<Running> {
  const executable = findChromium();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-mcp-chromium-'));
  const tmp = chromiumTmp(dir);
  const args = [
    `--user-data-dir=${path.join(dir, 'profile')}`,
    '--remote-debugging-port=0',
    '--no-first-run',
    '--no-default-browser-check',
    ...(headless ? ['--headless=new'] : []),
    // Chromium refuses to start its sandbox as root (containers, CI); anyone else keeps it.
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    // The first tab starts on about:blank, not on the new-tab page.
    'about:blank',
  ];
  err(`gateway mcp: starting Chromium${headless ? ' (headless)' : ''}: ${executable}…`);
  const removeDir = () => {
    for (const each of tmp.startsWith(dir) ? [dir] : [dir, tmp]) rmSync(each, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  // A crash of this process must not leave the browser behind.
  let pgid: number | undefined;
  const killNow = () => {
    try {
      if (pgid !== undefined) process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killNow);
  let browser: ChromiumProcess;
  try {
    // Its stdout is not ours: that is for JSON-RPC alone.
    browser = await startChromium({
      file: executable,
      args,
      env: { ...process.env, TMPDIR: tmp },
      timeoutMs: LAUNCH_TIMEOUT_MS,
      onSpawn: (spawned) => (pgid = spawned),
    });
  } catch (error) {
    process.off('exit', killNow);
    removeDir();
    throw new AgentError('browser', `the local Chromium did not start: ${(error as Error).message}`);
  }
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await browser.stop(STOP_GRACE_MS);
      process.off('exit', killNow);
      removeDir();
    })());
  void browser.exited.then(() => stop()).then(onExit, (error: Error) => err(`gateway mcp: could not remove ${dir}: ${error.message}`));
  return { wsUrl: browser.wsUrl, stop };
}
