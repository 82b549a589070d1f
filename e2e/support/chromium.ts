// Real headless Chromium processes for tests: each with its own profile directory, killed and
// cleaned up on close.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface LaunchedChromium {
  wsUrl: string;
  port: number;
  pid: number;
  close(): Promise<void>;
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--remote-debugging-port=0'];

export function launchChromium(timeoutMs = 20_000): Promise<LaunchedChromium> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'br-chromium-'));
  // Its own process group, so close() ends the renderers and helpers too, not only the browser.
  const child = spawn(CHROMIUM_PATH, [...CHROMIUM_FLAGS, `--user-data-dir=${dir}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    const running = child.exitCode === null && child.signalCode === null;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      if (running) child.kill('SIGKILL');
    }
    if (running) await exited;
    // A killed process can still be flushing into the profile for a moment.
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  };
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => { void close(); reject(new Error(`Chromium did not start within ${timeoutMs} ms: ${stderr.slice(-500)}`)); }, timeoutMs);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        child.stderr!.removeAllListeners('data');
        child.stderr!.resume();
        resolve({ wsUrl: match[1]!, port: Number(new URL(match[1]!).port), pid: child.pid!, close });
      }
    });
    child.once('error', (error) => { clearTimeout(timer); reject(error); });
  });
}
