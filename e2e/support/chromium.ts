// Real headless Chromium for the tests: an upstream provider, or the browser a vendor stand-in
// hands out. Each browser gets a fresh profile directory; stop() kills it and removes the directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

async function stopChromium(child: ChildProcess, dataDir: string): Promise<void> {
  const pid = child.pid!;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // The browser and its helpers share the process group we started (detached): end them together.
    try { process.kill(-pid, 'SIGKILL'); } catch { child.kill('SIGKILL'); }
    await exited;
  }
  running.delete(pid);
  // A helper that outlives the browser by a moment can still write into the profile directory;
  // remove it once no live process of the group is left (polled, with a deadline).
  const deadline = Date.now() + 5_000;
  while (liveGroupMembers(pid) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

/** Processes of a process group that are still running (zombies do not count); Linux /proc. */
function liveGroupMembers(pgid: number): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') count += 1;
    } catch {
      // the process ended while we looked
    }
  }
  return count;
}
