// Child processes of the product (web, proxy) with prefixed output and a clean stop.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
export const nextBin = path.join(path.dirname(require.resolve('next/package.json')), 'dist/bin/next');
/** Runs a program of the project compiled ahead when it can, else under tsx (scripts/run.mjs). */
export const programRunner = path.resolve(import.meta.dirname, '..', 'run.mjs');
export const tsxBin = path.join(path.dirname(require.resolve('tsx/package.json')), 'dist/cli.mjs');
export const tscBin = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin/tsc');
export const eslintBin = path.join(path.dirname(require.resolve('eslint/package.json')), 'bin/eslint.js');
export const prettierBin = path.join(path.dirname(require.resolve('prettier/package.json')), 'bin/prettier.cjs');

export function startChild(name: string, args: string[], env: NodeJS.ProcessEnv, quiet = false): ChildProcess {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const relay = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
    if (quiet) return;
    for (const line of chunk.toString().split('\n')) if (line.trim()) stream.write(`[${name}] ${line}\n`);
  };
  child.stdout?.on('data', relay(process.stdout));
  child.stderr?.on('data', relay(process.stderr));
  return child;
}

/** SIGTERM, then SIGKILL after the grace period. Resolves when the child has exited. */
export function stopChild(child: ChildProcess, graceMs = 35_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export function runToEnd(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

/**
 * Runs a node script with its output kept (both streams, in order) rather than printed, so that
 * processes running side by side never interleave; `live` prints as it comes instead. A run still
 * going after `timeoutMs` is killed.
 */
export function runCaptured(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { timeoutMs?: number; live?: boolean } = {},
): Promise<{ code: number; output: Buffer; timedOut: boolean }> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: Buffer[] = [];
  const keep = (stream: NodeJS.WriteStream) => (chunk: Buffer) => (options.live ? stream.write(chunk) : output.push(chunk));
  child.stdout.on('data', keep(process.stdout));
  child.stderr.on('data', keep(process.stderr));
  let timedOut = false;
  const timer = options.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, options.timeoutMs)
    : undefined;
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, output: Buffer.concat(output), timedOut });
    });
  });
}

/**
 * Whether a process is still running. Signal 0 also finds a zombie: a process that has exited but
 * was not reaped yet. A detached process (a daemon, or a child whose parent was killed) is reaped
 * by the machine's init, which may take seconds, so on Linux a zombie (state Z in
 * /proc/<pid>/stat) counts as gone.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat[stat.lastIndexOf(')') + 2];
    return state !== 'Z';
  } catch {
    return !existsSync('/proc/self/stat'); // it went meanwhile (Linux), or there is no /proc to ask
  }
}
