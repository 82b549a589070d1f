// Real headless Chromium for the tests: an upstream provider, or the browser a vendor stand-in
// hands out. Each browser gets a fresh profile directory; stop() kills it and removes the directory.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startChromium } from '../../proxy/browsers/launch';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LAUNCH_TIMEOUT_MS = 30_000;

// Browsers run in their own process group (so stop() ends the helpers too); if a test process
// exits without stopping one, this ends it rather than leaving it behind.
const running = new Set<number>();
process.once('exit', () => {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
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
  let pgid: number | undefined;
  try {
    const browser = await startChromium({
      file: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--remote-debugging-port=0',
        `--user-data-dir=${dataDir}`,
        'about:blank',
      ],
      timeoutMs: LAUNCH_TIMEOUT_MS,
      onSpawn: (spawned) => running.add((pgid = spawned)),
    });
    const port = Number(new URL(browser.wsUrl).port);
    const stop = async () => {
      // The browser and its helpers share the process group (detached): ended together, and the
      // profile directory removed once no live process of the group is left.
      await browser.stop(0);
      running.delete(browser.pgid);
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    };
    return { wsUrl: browser.wsUrl, httpUrl: `http://127.0.0.1:${port}`, port, pid: browser.pgid, stop };
  } catch (error) {
    // startChromium stopped what it started before it failed.
    if (pgid !== undefined) running.delete(pgid);
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    throw error;
  }
}
