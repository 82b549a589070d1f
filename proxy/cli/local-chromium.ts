// The browser `gateway mcp` starts for itself when it is given no --cdp-endpoint: a Chromium or
// Chrome of this machine, started on first use (an agent tool starts its MCP servers with every
// conversation, and most never open a browser) and started again if it was closed. Each launch
// gets a temporary directory of its own, holding the profile and Chromium's TMPDIR (where Chromium
// leaves its singleton socket even after a clean exit); stop() ends the browser and every helper
// process, then removes that directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AgentError } from '../agent/types';
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
/** Between SIGTERM (Chromium shuts down in order) and SIGKILL to the whole process group. */
const STOP_GRACE_MS = 3_000;
const DEVTOOLS_LINE = /DevTools listening on (ws:\/\/\S+)/;

export function findChromium(env: Env = process.env): string {
  if (env.CHROMIUM_PATH) {
    if (!existsSync(env.CHROMIUM_PATH)) throw new AgentError('browser', `no browser at CHROMIUM_PATH (${env.CHROMIUM_PATH}); the user should set CHROMIUM_PATH to the executable of Chromium or Chrome`);
    return env.CHROMIUM_PATH;
  }
  const found = CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new AgentError('browser', `no Chromium or Chrome found on this machine (looked at ${CHROMIUM_CANDIDATES.join(', ')}); the user should set CHROMIUM_PATH to the browser's executable, or start gateway mcp with --cdp-endpoint <url> of a running browser`);
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

/** Starts one browser; `onExit` is called once it has exited and its directory is gone, however it ended. */
async function launch(headless: boolean, onExit: () => void): Promise<Running> {
  const executable = findChromium();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-mcp-chromium-'));
  const tmp = path.join(dir, 'tmp');
  mkdirSync(tmp);
  const args = [
    `--user-data-dir=${path.join(dir, 'profile')}`, '--remote-debugging-port=0', '--no-first-run', '--no-default-browser-check',
    ...(headless ? ['--headless=new'] : []),
    // Chromium refuses to start its sandbox as root (containers, CI); anyone else keeps it.
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    // The first tab starts on about:blank, not on the new-tab page.
    'about:blank',
  ];
  err(`gateway mcp: starting Chromium${headless ? ' (headless)' : ''}: ${executable}…`);
  // Its own process group, so that a stop reaches its helpers too. Its stdout is not ours: that is
  // for JSON-RPC alone.
  const child = spawn(executable, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TMPDIR: tmp } });
  // 'exit', not 'close': the helpers inherit stderr and keep the pipe open after the browser died.
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A crash of this process must not leave the browser behind.
  const killNow = () => signal(child, 'SIGKILL', true);
  process.once('exit', killNow);
  let stopping: Promise<void> | null = null;
  const stop = () => (stopping ??= (async () => {
    await end(child, exited);
    process.off('exit', killNow);
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  })());
  void exited.then(() => stop()).then(onExit, (error: Error) => err(`gateway mcp: could not remove ${dir}: ${error.message}`));

  try {
    const wsUrl = await devtoolsAddress(child);
    return { wsUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The address Chromium prints on stderr once it listens; rejects with its last words if it exits first. */
function devtoolsAddress(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const fail = (message: string) => {
      cleanup();
      reject(new AgentError('browser', `the local Chromium did not start: ${message}`));
    };
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-4_096);
      const match = DEVTOOLS_LINE.exec(seen);
      if (!match) return;
      cleanup();
      resolve(match[1]!);
    };
    const onExit = (code: number | null, sig: string | null) => {
      const last = seen.trim().split('\n').slice(-3).join(' | ');
      fail(`it exited (${sig ?? `code ${code}`})${last ? `: ${last}` : ''}`);
    };
    const onError = (error: NodeJS.ErrnoException) => fail(error.code === 'ENOENT' ? `${child.spawnfile} not found (set CHROMIUM_PATH)` : error.message);
    const timer = setTimeout(() => fail(`it printed no DevTools address within ${LAUNCH_TIMEOUT_MS / 1000} s`), LAUNCH_TIMEOUT_MS);
    function cleanup() {
      clearTimeout(timer);
      child.stderr!.off('data', onData);
      child.stderr!.resume(); // keep draining: a full pipe would block the browser
      child.off('exit', onExit);
      child.off('error', onError);
    }
    child.stderr!.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

/** SIGTERM to the browser, SIGKILL to its group after the grace; resolves when no process of the group is left. */
async function end(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.pid === undefined) return;
  if (child.exitCode === null && child.signalCode === null) {
    signal(child, 'SIGTERM', false);
    const timer = setTimeout(() => signal(child, 'SIGKILL', true), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
  // The browser is gone; sweep what remains of its group (a zygote, a utility process).
  signal(child, 'SIGKILL', true);
  const deadline = Date.now() + 5_000;
  while (groupAlive(child.pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

function signal(child: ChildProcess, name: NodeJS.Signals, group: boolean): void {
  if (child.pid === undefined) return;
  try {
    process.kill(group ? -child.pid : child.pid, name);
  } catch {
    // already gone
  }
}

/**
 * Whether a process of the group still runs. Zombies count as gone: where PID 1 does not reap
 * orphans (node as a container's init) they would never leave.
 */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  return readdirSync('/proc').some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[2]) === pgid && fields[0] !== 'Z';
    } catch {
      return false; // it ended while we looked
    }
  });
}
