// One Chromium process per session: launch it, learn its DevTools address, stop it completely.
// Each browser gets its own process group (detached), so that a stop reaches the zygotes,
// renderers and utility processes too, and a Ctrl-C in the terminal reaches the pool first.
// Under isolation (sandbox.ts) the group's leader is bwrap: its pid namespace holds the whole
// browser, and the namespace ends, every process in it killed, when the browser's main process
// exits, when bwrap is killed, or when the pool dies (--die-with-parent).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LaunchError, processTable, startChromium } from '../browsers/launch';
import { browserEnv, NO_ISOLATION, type Isolation } from './sandbox';
import { sandboxCommand } from './sandbox-command';

export interface ChromiumFlags {
  /** Chromium's own sandbox; off (`--no-sandbox`) only where the machine cannot give it. */
  sandbox: boolean;
  /** The egress proxy every request goes through, loopback included. */
  proxyUrl?: string;
}

/** Headless with nothing that calls home (no background networking, updates or sync), the sandbox when possible, the egress proxy. */
export function chromiumArgs(userDataDir: string, flags: ChromiumFlags = { sandbox: false }): string[] {
  return [
    '--headless',
    ...(flags.sandbox ? [] : ['--no-sandbox']),
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--remote-debugging-port=0',
    `--user-data-dir=${userDataDir}`,
    ...(flags.proxyUrl ? [`--proxy-server=${flags.proxyUrl}`, '--proxy-bypass-list=<-loopback>'] : []),
    // The first tab starts on about:blank, not on the new-tab page (a WebUI page that redirects
    // while the browser starts, and that a client's CDP handshake could find half-way).
    'about:blank',
  ];
}

export interface Browser {
  /** The browser's main process (Chromium's, inside the sandbox; as the host sees it). */
  pid: number;
  /** The process group: bwrap's pid under isolation, else the spawned process's. */
  pgid: number;
  /** ws://127.0.0.1:<port>/devtools/browser/<id> */
  wsUrl: string;
  devtoolsPort: number;
  launchMs: number;
  /** Resolves when the main process has exited. */
  exited: Promise<void>;
  hasExited(): boolean;
  /** SIGTERM to the main process, SIGKILL to the whole group after `graceMs`; resolves when every process of the group is gone. */
  stop(graceMs: number): Promise<void>;
}

export interface LaunchOptions {
  executable: string;
  userDataDir: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** How the browser is confined (sandbox.ts); default: none, as before isolation existed (bench, tools). */
  isolation?: Isolation;
  /** The uid (= gid) the browser runs as, when the isolation switches uids. */
  uid?: number;
  proxyUrl?: string;
}

export { LaunchError };

export async function launchChromium({ executable, userDataDir, timeoutMs, signal, isolation = NO_ISOLATION, uid, proxyUrl }: LaunchOptions): Promise<Browser> {
  // Inside the sandbox a missing binary would only show as bwrap's exit; say it as plainly as spawn's ENOENT.
  if (isolation.bwrap && !existsSync(executable)) throw new LaunchError(`chromium not found at ${executable} (set CHROMIUM_PATH)`);
  const started = performance.now();
  const args = chromiumArgs(userDataDir, { sandbox: isolation.chromiumSandbox, proxyUrl });
  const env = browserEnv();
  const command = isolation.bwrap ? sandboxCommand(isolation, { command: [executable, ...args], uid, writable: userDataDir, env }) : { file: executable, args };
  // The pool's environment holds secrets (POOL_TOKEN, DATABASE_URL…): a browser gets none of it.
  const spawnEnv = (isolation.bwrap
    ? { PATH: '/usr/bin:/bin' }
    : { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env }) as unknown as NodeJS.ProcessEnv;
  const notFound = `${isolation.bwrap ? 'bwrap' : 'chromium'} not found at ${command.file}${isolation.bwrap ? '' : ' (set CHROMIUM_PATH)'}`;
  const browser = await startChromium({ file: command.file, args: command.args, env: spawnEnv, timeoutMs, signal, notFound });
  // Chromium's main process shuts down in order on SIGTERM (profile flushed). bwrap does not
  // forward signals, so the main process is signalled directly; unknown, bwrap (its namespace dies with it).
  const mainPid = await browserProcess(browser.pgid);
  return {
    pid: mainPid ?? browser.pgid,
    pgid: browser.pgid,
    wsUrl: browser.wsUrl,
    devtoolsPort: Number(new URL(browser.wsUrl).port),
    launchMs: Math.round(performance.now() - started),
    exited: browser.exited,
    hasExited: browser.hasExited,
    stop: (graceMs) => browser.stop(graceMs, mainPid),
  };
}

/**
 * Chromium's main process among the descendants of what was spawned (bwrap, its init, a wrapper
 * script that did not exec): the deepest one whose arguments name a user-data-dir and no `--type=`
 * (zygotes, renderers and utilities have one), and not those of its parent: that is a child the
 * browser has forked but not yet exec'd (a zygote, utility or crash handler starting, some after
 * the DevTools line), which would win as the deepest and then become a `--type=` process, whose
 * pid the session would report and SIGTERM at stop instead of the browser's. Undefined without /proc.
 */
async function browserProcess(root: number): Promise<number | undefined> {
  const table = await processTable();
  const children = new Map<number, number[]>();
  for (const p of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  let best: { pid: number; depth: number } | undefined;
  const queue: { pid: number; depth: number; parentCmdline?: string }[] = [{ pid: root, depth: 0 }];
  while (queue.length > 0) {
    const { pid, depth, parentCmdline } = queue.shift()!;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    const argv = cmdline.split('\0');
    const isBrowser =
      cmdline !== parentCmdline &&
      path.basename(argv[0] ?? '') !== 'bwrap' &&
      argv.some((a) => a.startsWith('--user-data-dir=')) &&
      !argv.some((a) => a.startsWith('--type='));
    if (isBrowser && (!best || depth > best.depth)) best = { pid, depth };
    for (const child of children.get(pid) ?? []) queue.push({ pid: child, depth: depth + 1, parentCmdline: cmdline });
  }
  return best?.pid;
}
