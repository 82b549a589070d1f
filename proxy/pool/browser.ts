// One Chromium process per session: launch it, learn its DevTools address, stop it completely.
// Each browser gets its own process group (detached), so that a stop reaches the zygotes,
// renderers and utility processes too, and a Ctrl-C in the terminal reaches the pool first.
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

const DEVTOOLS_LINE = /DevTools listening on (ws:\/\/\S+)/;

/** The flags of OFFLINE.md: headless, no sandbox (containers), nothing that calls home. */
export function chromiumArgs(userDataDir: string): string[] {
  return [
    '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--remote-debugging-port=0', `--user-data-dir=${userDataDir}`,
  ];
}

export interface Browser {
  pid: number;
  /** ws://127.0.0.1:<port>/devtools/browser/<id> */
  wsUrl: string;
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
}

export class LaunchError extends Error {}

export function launchChromium({ executable, userDataDir, timeoutMs, signal }: LaunchOptions): Promise<Browser> {
  const started = performance.now();
  const child = spawn(executable, chromiumArgs(userDataDir), { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let exited = false;
  // 'exit', not 'close': the zygotes inherit stderr and keep the pipe open after the main process died.
  const exitedPromise = new Promise<void>((resolve) => child.once('exit', () => { exited = true; resolve(); }));
  let stderrTail = '';

  const stop = async (graceMs: number) => {
    const pid = child.pid;
    if (pid === undefined) return;
    if (!exited) {
      signalGroup(pid, 'SIGTERM', false);
      const timer = setTimeout(() => signalGroup(pid, 'SIGKILL', true), graceMs);
      await exitedPromise;
      clearTimeout(timer);
    }
    // The main process is gone; sweep whatever of its group remains (a zygote, a utility).
    signalGroup(pid, 'SIGKILL', true);
    await groupGone(pid, 5_000);
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
      resolve({
        pid: child.pid!,
        wsUrl: match[1]!,
        launchMs: Math.round(performance.now() - started),
        exited: exitedPromise,
        hasExited: () => exited,
        stop,
      });
    };
    const onError = (error: NodeJS.ErrnoException) => {
      fail(error.code === 'ENOENT' ? `chromium not found at ${executable} (set CHROMIUM_PATH)` : `cannot start ${executable}: ${error.message}`);
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

function signalGroup(pid: number, signal: NodeJS.Signals, group: boolean): void {
  try {
    process.kill(group ? -pid : pid, signal);
  } catch {
    // already gone
  }
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
    if (Date.now() - started > 200 && (await livingMembers(pgid)) === 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function livingMembers(pgid: number): Promise<number> {
  let count = 0;
  const pids = await readdir('/proc').catch(() => [] as string[]);
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // "pid (comm) state ppid pgrp …" — comm may contain spaces and parentheses
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') count++;
  }
  return count;
}
