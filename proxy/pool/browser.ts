// One Chromium process per session: launch it, learn its DevTools address, stop it completely.
// Each browser gets its own process group (detached), so that a stop reaches the zygotes,
// renderers and utility processes too, and a Ctrl-C in the terminal reaches the pool first.
// Under isolation (sandbox.ts) the group's leader is bwrap: its pid namespace holds the whole
// browser, and the namespace ends, every process in it killed, when the browser's main process
// exits, when bwrap is killed, or when the pool dies (--die-with-parent).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { browserEnv, NO_ISOLATION, sandboxCommand, type Isolation } from './sandbox';

const DEVTOOLS_LINE = /DevTools listening on (ws:\/\/\S+)/;

export interface ChromiumFlags {
  /** Chromium's own sandbox; off (`--no-sandbox`) only where the machine cannot give it. */
  sandbox: boolean;
  /** The egress proxy every request goes through, loopback included. */
  proxyUrl?: string;
}

/** Headless with nothing that calls home (no background networking, updates or sync), the sandbox when possible, the egress proxy. */
export function chromiumArgs(userDataDir: string, flags: ChromiumFlags = { sandbox: false }): string[] {
  return [
    '--headless', ...(flags.sandbox ? [] : ['--no-sandbox']), '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--remote-debugging-port=0', `--user-data-dir=${userDataDir}`,
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

export class LaunchError extends Error {}

export function launchChromium({ executable, userDataDir, timeoutMs, signal, isolation = NO_ISOLATION, uid, proxyUrl }: LaunchOptions): Promise<Browser> {
  // Inside the sandbox a missing binary would only show as bwrap's exit; say it as plainly as spawn's ENOENT.
  if (isolation.bwrap && !existsSync(executable)) return Promise.reject(new LaunchError(`chromium not found at ${executable} (set CHROMIUM_PATH)`));
  const started = performance.now();
  const args = chromiumArgs(userDataDir, { sandbox: isolation.chromiumSandbox, proxyUrl });
  const env = browserEnv();
  const command = isolation.bwrap
    ? sandboxCommand(isolation, { command: [executable, ...args], uid, writable: userDataDir, env })
    : { file: executable, args };
  // The pool's environment holds secrets (POOL_TOKEN, DATABASE_URL…): a browser gets none of it.
  const spawnEnv = (isolation.bwrap ? { PATH: '/usr/bin:/bin' } : { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env }) as unknown as NodeJS.ProcessEnv;
  const child = spawn(command.file, command.args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: spawnEnv });
  let exited = false;
  // 'exit', not 'close': the zygotes inherit stderr and keep the pipe open after the main process died.
  const exitedPromise = new Promise<void>((resolve) => child.once('exit', () => { exited = true; resolve(); }));
  let stderrTail = '';
  let mainPid: number | undefined;

  const stop = async (graceMs: number) => {
    const pgid = child.pid;
    if (pgid === undefined) return;
    if (!exited) {
      // Chromium's main process shuts down in order on SIGTERM (profile flushed). bwrap does not
      // forward signals, so it is signalled directly; before it is known, bwrap (its namespace dies with it).
      signalProcess(mainPid ?? pgid, 'SIGTERM', false);
      const timer = setTimeout(() => signalProcess(pgid, 'SIGKILL', true), graceMs);
      await exitedPromise;
      clearTimeout(timer);
    }
    // The main process is gone; sweep whatever of its group remains (a zygote, a utility).
    signalProcess(pgid, 'SIGKILL', true);
    await groupGone(pgid, 5_000);
  };

  return new Promise<Browser>((resolve, reject) => {
    // Rejects only once every process is gone, so the caller can remove the directory safely.
    const fail = (message: string) => {
      cleanup();
      void stop(0).finally(() => reject(new LaunchError(message)));
    };
    const onData = (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString()).slice(-4096);
      const match = DEVTOOLS_LINE.exec(stderrTail);
      if (!match) return;
      cleanup();
      const wsUrl = match[1]!;
      void browserProcess(child.pid!).then((pid) => {
        mainPid = pid;
        resolve({
          pid: pid ?? child.pid!,
          pgid: child.pid!,
          wsUrl,
          devtoolsPort: Number(new URL(wsUrl).port),
          launchMs: Math.round(performance.now() - started),
          exited: exitedPromise,
          hasExited: () => exited,
          stop,
        });
      });
    };
    const onError = (error: NodeJS.ErrnoException) => {
      fail(error.code === 'ENOENT' ? `${isolation.bwrap ? 'bwrap' : 'chromium'} not found at ${command.file}${isolation.bwrap ? '' : ' (set CHROMIUM_PATH)'}` : `cannot start ${command.file}: ${error.message}`);
    };
    const onClose = (code: number | null, sig: string | null) => {
      const lastLines = stderrTail.trim().split('\n').slice(-3).join(' | ');
      fail(`chromium exited before it was ready (${sig ?? `code ${code}`})${lastLines ? `: ${lastLines}` : ''}`);
    };
    const onAbort = () => fail('launch aborted');
    const timer = setTimeout(() => fail(`chromium did not report a DevTools address within ${timeoutMs} ms`), timeoutMs);
    function cleanup() {
      clearTimeout(timer);
      child.stderr!.off('data', onData);
      child.stderr!.resume(); // keep draining: a full pipe would block the browser
      child.off('error', onError);
      child.off('exit', onClose);
      signal?.removeEventListener('abort', onAbort);
    }
    child.stderr!.on('data', onData);
    child.once('error', onError);
    child.once('exit', onClose);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function signalProcess(pid: number, signal: NodeJS.Signals, group: boolean): void {
  try {
    process.kill(group ? -pid : pid, signal);
  } catch {
    // already gone
  }
}

interface ProcessInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  state: string;
}

async function processTable(): Promise<ProcessInfo[]> {
  const out: ProcessInfo[] = [];
  const pids = await readdir('/proc').catch(() => [] as string[]);
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    if (!stat) continue;
    // "pid (comm) state ppid pgrp …" — comm may contain spaces and parentheses
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.push({ pid: Number(pid), state: fields[0]!, ppid: Number(fields[1]), pgrp: Number(fields[2]) });
  }
  return out;
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
    const isBrowser = cmdline !== parentCmdline && path.basename(argv[0] ?? '') !== 'bwrap' && argv.some((a) => a.startsWith('--user-data-dir=')) && !argv.some((a) => a.startsWith('--type='));
    if (isBrowser && (!best || depth > best.depth)) best = { pid, depth };
    for (const child of children.get(pid) ?? []) queue.push({ pid: child, depth: depth + 1, parentCmdline: cmdline });
  }
  return best?.pid;
}

/** Waits until no living process is left in the group. Zombies count as gone: where PID 1 does
 *  not reap orphans (node as a container's init), they would otherwise never leave. */
async function groupGone(pgid: number, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    if (Date.now() - started > 200 && (await processTable()).filter((p) => p.pgrp === pgid && p.state !== 'Z').length === 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}
