// Starting a Chromium and stopping it completely: the one launcher under the pool's sandboxed
// browsers (proxy/pool/browser.ts), the browser `gateway mcp` starts for itself
// (proxy/cli/local-chromium.ts) and the tests' browsers (e2e/support/chromium.ts). Each browser
// gets a process group of its own (detached), so that a stop reaches its zygotes, renderers and
// utility processes too, and a Ctrl-C in the terminal reaches its parent first. Its DevTools
// address is the line it prints on stderr once it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

const DEVTOOLS_LINE = /DevTools listening on (ws:\/\/\S+)/;
/** After the main process exited, how long the rest of its group may take to go. */
const GROUP_GONE_MS = 5_000;

export interface StartOptions {
  /** What is spawned: Chromium, or a wrapper that runs it (bwrap). */
  file: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Until the DevTools line; the browser is stopped when it has not printed it by then. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** The message when `file` does not exist (default: `<file> not found (set CHROMIUM_PATH)`). */
  notFound?: string;
  /** Called at once with the new process group (a caller that must kill it when it dies itself). */
  onSpawn?(pgid: number): void;
}

export interface ChromiumProcess {
  /** The spawned process's pid, which is also its process group's. */
  pgid: number;
  /** ws://127.0.0.1:<port>/devtools/browser/<id> */
  wsUrl: string;
  /** Resolves when the spawned process has exited. */
  exited: Promise<void>;
  hasExited(): boolean;
  /**
   * SIGTERM to `mainPid` (Chromium shuts down in order: its profile is flushed; default the spawned
   * process), SIGKILL to the whole group after `graceMs`; resolves once no living process of the
   * group is left. Idempotent in effect: a second call finds the group gone.
   */
  stop(graceMs: number, mainPid?: number): Promise<void>;
}

/** The browser did not come up; by the time this is thrown, no process of it is left. */
export class LaunchError extends Error {}

export function startChromium(options: StartOptions): Promise<ChromiumProcess> {
  const child = spawn(options.file, options.args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: options.env ?? process.env });
  let exited = false;
  // 'exit', not 'close': the helpers inherit stderr and keep the pipe open after the browser died.
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  if (child.pid !== undefined) options.onSpawn?.(child.pid);
  const stop = (graceMs: number, mainPid?: number) => stopGroup(child, exitedPromise, () => exited, graceMs, mainPid);
  return new Promise<ChromiumProcess>((resolve, reject) => {
    let stderrTail = '';
    const fail = (message: string) => {
      cleanup();
      void stop(0).finally(() => reject(new LaunchError(message)));
    };
    const onData = (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString()).slice(-4096);
      const match = DEVTOOLS_LINE.exec(stderrTail);
      if (!match) return;
      cleanup();
      resolve({ pgid: child.pid!, wsUrl: match[1]!, exited: exitedPromise, hasExited: () => exited, stop });
    };
    const onError = (error: NodeJS.ErrnoException) => {
      fail(error.code === 'ENOENT' ? (options.notFound ?? `${options.file} not found (set CHROMIUM_PATH)`) : `cannot start ${options.file}: ${error.message}`);
    };
    const onExit = (code: number | null, sig: string | null) => {
      const lastLines = stderrTail.trim().split('\n').slice(-3).join(' | ');
      fail(`chromium exited before it was ready (${sig ?? `code ${code}`})${lastLines ? `: ${lastLines}` : ''}`);
    };
    const onAbort = () => fail('launch aborted');
    const timer = setTimeout(() => fail(`chromium did not report a DevTools address within ${options.timeoutMs} ms`), options.timeoutMs);
    function cleanup() {
      clearTimeout(timer);
      child.stderr!.off('data', onData);
      child.stderr!.resume(); // keep draining: a full pipe would block the browser
      child.off('error', onError);
      child.off('exit', onExit);
      options.signal?.removeEventListener('abort', onAbort);
    }
    child.stderr!.on('data', onData);
    child.once('error', onError);
    child.once('exit', onExit);
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function stopGroup(child: ChildProcess, exited: Promise<void>, hasExited: () => boolean, graceMs: number, mainPid?: number): Promise<void> {
  const pgid = child.pid;
  if (pgid === undefined) return;
  if (!hasExited()) {
    signalProcess(mainPid ?? pgid, 'SIGTERM', false);
    const timer = setTimeout(() => signalProcess(pgid, 'SIGKILL', true), graceMs);
    await exited;
    clearTimeout(timer);
  }
  // The main process is gone; sweep whatever of its group remains (a zygote, a utility).
  signalProcess(pgid, 'SIGKILL', true);
  await groupGone(pgid, GROUP_GONE_MS);
}

function signalProcess(pid: number, signal: NodeJS.Signals, group: boolean): void {
  try {
    process.kill(group ? -pid : pid, signal);
  } catch {
    // already gone
  }
}

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  /** `Z` for a zombie. */
  state: string;
}

/** Every process of this machine as /proc lists it; empty without /proc. */
export async function processTable(): Promise<ProcessInfo[]> {
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
 * Waits until no living process is left in the group (or `timeoutMs` passed). Zombies count as
 * gone: where PID 1 does not reap orphans (node as a container's init), they would never leave.
 */
async function groupGone(pgid: number, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    // A group being signalled is mostly gone within moments; /proc is read only after that.
    if (Date.now() - started > 200 && (await processTable()).every((p) => p.pgrp !== pgid || p.state === 'Z')) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}
