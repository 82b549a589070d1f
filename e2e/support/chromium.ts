// Real headless Chromium for the tests: an upstream provider, or the browser a vendor stand-in
// hands out. Each browser gets a fresh profile directory; stop() kills it and removes the directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LAUNCH_TIMEOUT_MS = 30_000;

// Browsers run in their own process group (so stop() ends the helpers too); if a test process
// exits without stopping one, this ends it rather than leaving it behind.
const running = new Set<number>();
process.once('exit', () => {
  for (const pid of running) {
    try { process.kill(-pid, 'SIGKILL'); } catch { /* already gone */ }
  }
});

export interface Chromium {
  /** ws://127.0.0.1:<port>/devtools/browser/<id> */
  wsUrl: string;
  /** http://127.0.0.1:<port>, which serves /json/version */
  httpUrl: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export async function launchChromium(): Promise<Chromium> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'br-chromium-'));
  const child = spawn(CHROMIUM, [
    '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--remote-debugging-port=0', `--user-data-dir=${dataDir}`, 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  if (child.pid) running.add(child.pid);
  const stop = () => stopChromium(child, dataDir);
  try {
    const wsUrl = await new Promise<string>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`Chromium printed no DevTools address within ${LAUNCH_TIMEOUT_MS} ms`)), LAUNCH_TIMEOUT_MS);
      child.stderr!.on('data', (chunk: Buffer) => {
        seen = (seen + chunk.toString()).slice(-4_096);
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`Chromium exited (code ${code}) before listening`)); });
      child.once('error', (error) => { clearTimeout(timer); reject(error); });
    });
    child.stderr!.resume(); // keep draining its logs so it never blocks on a full pipe
    const port = Number(new URL(wsUrl).port);
    return { wsUrl, httpUrl: `http://127.0.0.1:${port}`, port, pid: child.pid!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function stopChromium(child: ChildProcess, dataDir: string): Promise<void> {
  const cleanup = () => {
    running.delete(child.pid!);
    rmSync(dataDir, { recursive: true, force: true });
  };
  if (child.exitCode !== null || child.signalCode !== null) {
    cleanup();
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    child.once('exit', () => { cleanup(); resolve(); });
    // The browser and its helpers share the process group we started (detached): end them together.
    try { process.kill(-child.pid!, 'SIGKILL'); } catch { child.kill('SIGKILL'); }
  });
}
