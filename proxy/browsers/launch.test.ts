// The one Chromium launcher: a real Chromium comes up and goes down with every process of its
// group; a program that dies, hangs or is aborted before the DevTools line leaves nothing behind.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { LaunchError, processTable, startChromium } from './launch';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const groupMembers = async (pgid: number) => (await processTable()).filter((p) => p.pgrp === pgid && p.state !== 'Z');

test('a Chromium starts with its DevTools address; stop() ends the browser and every helper of its group', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'br-launch-'));
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
        '--remote-debugging-port=0',
        `--user-data-dir=${dir}`,
        'about:blank',
      ],
      timeoutMs: 30_000,
      onSpawn: (spawned) => (pgid = spawned),
    });
    assert.equal(browser.pgid, pgid);
    assert.match(browser.wsUrl, /^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);
    const version = (await (await fetch(`http://127.0.0.1:${new URL(browser.wsUrl).port}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    assert.equal(version.webSocketDebuggerUrl, browser.wsUrl);
    assert.ok((await groupMembers(browser.pgid)).length > 1, 'the browser runs helpers in its group');
    await browser.stop(3_000);
    assert.equal(browser.hasExited(), true);
    assert.deepEqual(await groupMembers(browser.pgid), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a program that exits first is refused with its last words; one that never says where it listens is stopped at the deadline', async () => {
  let pgid = 0;
  const onSpawn = (spawned: number) => (pgid = spawned);
  await assert.rejects(
    startChromium({ file: '/bin/sh', args: ['-c', 'echo first >&2; echo "no display" >&2; exit 3'], timeoutMs: 30_000, onSpawn }),
    (error: Error) => error instanceof LaunchError && error.message === 'chromium exited before it was ready (code 3): first | no display',
  );
  await assert.rejects(
    startChromium({ file: '/bin/sh', args: ['-c', 'sleep 60 & wait'], timeoutMs: 300, onSpawn }),
    (error: Error) => error instanceof LaunchError && error.message === 'chromium did not report a DevTools address within 300 ms',
  );
  assert.deepEqual(await groupMembers(pgid), [], 'the shell and its sleep are gone');
});

test('an abort stops the launch; a missing program says so', async () => {
  const abort = new AbortController();
  let pgid = 0;
  const launching = startChromium({
    file: '/bin/sh',
    args: ['-c', 'sleep 60 & wait'],
    timeoutMs: 30_000,
    signal: abort.signal,
    onSpawn: (spawned) => (pgid = spawned),
  });
  abort.abort();
  await assert.rejects(launching, /launch aborted/);
  assert.deepEqual(await groupMembers(pgid), []);
  await assert.rejects(
    startChromium({ file: '/nonexistent/chromium', args: [], timeoutMs: 30_000 }),
    (error: Error) => error instanceof LaunchError && error.message === '/nonexistent/chromium not found (set CHROMIUM_PATH)',
  );
});
