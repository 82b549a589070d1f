// The pool's life: calibrating until the warm-up browser worked, a missing binary, recovery
// after a crash of the pool (isolated browsers die with it; without isolation they are orphaned
// and the next pool kills them), and a clean SIGTERM shutdown.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { auth, openSocket, processesUnder, refusal, startTestPool, waitFor } from './testing';
import { killBrowsersUnder } from './workdir';
import { isRunning, programRunner } from '../../scripts/lib/processes';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'pool-lifecycle-'));
// The slow-chromium script below runs inside the browsers' sandbox, as their uid: its directory is
// bound read-only into it (a CHROMIUM_PATH outside /usr) and must be readable there.
chmodSync(scratch, 0o755);
after(() => rmSync(scratch, { recursive: true, force: true }));
const status = async (base: string, headers: Record<string, string> = auth) =>
  (await fetch(`${base}/pool/status`, { headers })).json() as Promise<Record<string, unknown>>;

test('calibrating: upgrades get 503 until the warm-up browser has started', async () => {
  const gate = path.join(scratch, 'gate');
  const slowChromium = path.join(scratch, 'slow-chromium');
  writeFileSync(slowChromium, `#!/bin/sh\nwhile [ ! -e '${gate}' ]; do sleep 0.02; done\nexec /usr/bin/chromium "$@"\n`);
  chmodSync(slowChromium, 0o755);
  const pool = await startTestPool({ chromiumPath: slowChromium }, false);
  try {
    const before = await status(pool.http);
    assert.equal(before.calibrating, true);
    assert.equal(before.launchMs, null);
    assert.deepEqual(await refusal(pool.ws, auth), { status: 503, body: 'pool calibrating' });
    assert.equal((await pool.get('/json/version')).status, 503);
    writeFileSync(gate, '');
    await waitFor('calibrated', async () => (await status(pool.http)).calibrating === false, 30_000);
    assert.equal(typeof (await status(pool.http)).launchMs, 'number');
    assert.equal((await pool.get('/json/version')).status, 200);
  } finally {
    await pool.stop();
  }
});

test('a missing binary keeps the pool calibrating and says why', async () => {
  const pool = await startTestPool({ chromiumPath: '/nonexistent/chromium' }, false);
  try {
    const current = await waitFor('calibration error', async () => {
      const s = await status(pool.http);
      return s.error ? s : undefined;
    });
    assert.equal(current.calibrating, true);
    assert.equal(current.error, 'chromium not found at /nonexistent/chromium (set CHROMIUM_PATH)');
    const refused = await refusal(pool.ws, auth);
    assert.equal(refused.status, 503);
    assert.match(refused.body, /^pool calibrating: chromium not found/);
  } finally {
    await pool.stop();
  }
});

interface ChildPool {
  child: ChildProcess;
  http: string;
  ws: string;
  /** The token the pool took from <DATA_DIR>/secrets.json, as a bearer header. */
  auth: Record<string, string>;
  output: () => string;
  exited: Promise<number | null>;
}

async function startChildPool(dataDir: string, extraEnv: Record<string, string> = {}): Promise<ChildPool> {
  const entry = fileURLToPath(new URL('./index.ts', import.meta.url));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    POOL_PORT: '0',
    POOL_CAPACITY: '2',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    POOL_KILL_GRACE_MS: '3000',
    ...extraEnv,
  };
  delete env.POOL_TOKEN; // alone, the pool takes the token kept in <DATA_DIR>/secrets.json
  const child = spawn(process.execPath, [programRunner, entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c));
  child.stderr!.on('data', (c: Buffer) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await waitFor(`pool child listening (output: ${output})`, () => /"port":(\d+),.*"msg":"pool listening"/.exec(output)?.[1], 20_000);
  const http = `http://127.0.0.1:${port}`;
  await waitFor('pool child calibrated', () => output.includes('"msg":"pool ready"'), 30_000);
  const token = (JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as { poolToken: string }).poolToken;
  assert.match(output, /"tokenFrom":"secrets.json"/);
  return { child, http, ws: `ws://127.0.0.1:${port}`, auth: { authorization: `Bearer ${token}` }, output: () => output, exited };
}

const runDirs = (dataDir: string) => readdirSync(path.join(dataDir, 'pool')).filter((n) => n.startsWith('run-'));

/** The second half of both crash tests: two sessions, SIGTERM, nothing left. */
async function sigtermLeavesNothing(pool: ChildPool, dataDir: string): Promise<void> {
  const sockets = await Promise.all([openSocket(pool.ws, pool.auth), openSocket(`${pool.ws}/devtools/browser`, pool.auth)]);
  const pids = (await processesUnder(dataDir)).length;
  assert.ok(pids >= 2);
  assert.equal((await status(pool.http, pool.auth)).active, 2);
  pool.child.kill('SIGTERM');
  assert.equal(await pool.exited, 0);
  for (const socket of sockets) assert.deepEqual(await socket.closed, { code: 1001, reason: 'pool shutting down' });
  assert.deepEqual(await processesUnder(dataDir), []);
  assert.deepEqual(runDirs(dataDir), []);
}

test('isolated browsers die with a SIGKILLed pool; the next pool clears the run directory; SIGTERM closes sessions and leaves nothing', async () => {
  const dataDir = path.join(scratch, 'data');
  const crashed = await startChildPool(dataDir);
  assert.match(crashed.output(), /"msg":"sandbox: bwrap/);
  const socket = await openSocket(crashed.ws, crashed.auth);
  const [crashedRun] = runDirs(dataDir);
  const sessionDir = path.join(dataDir, 'pool', crashedRun!, socket.sessionId);
  assert.ok((await processesUnder(sessionDir)).length > 0);
  crashed.child.kill('SIGKILL');
  await crashed.exited;
  await socket.closed;
  // bwrap --die-with-parent: the sandbox (its whole pid namespace) goes with the pool.
  await waitFor('the browsers die with their pool', async () => (await processesUnder(sessionDir)).length === 0);

  const pool = await startChildPool(dataDir);
  try {
    assert.match(pool.output(), /"killedProcesses":0,"msg":"removed the leftovers of a previous run"/);
    assert.ok(!existsSync(path.join(dataDir, 'pool', crashedRun!)));
    assert.equal(runDirs(dataDir).length, 1);
    await sigtermLeavesNothing(pool, dataDir);
  } finally {
    if (pool.child.exitCode === null) pool.child.kill('SIGKILL');
  }
});

test('without isolation (POOL_ISOLATION=none) a browser outlives a SIGKILLed pool and the next pool kills it', async () => {
  const dataDir = path.join(scratch, 'data-none');
  const none = { POOL_ISOLATION: 'none' };
  const crashed = await startChildPool(dataDir, none);
  assert.match(crashed.output(), /"msg":"sandbox: none/);
  const orphanSocket = await openSocket(crashed.ws, crashed.auth);
  const [crashedRun] = runDirs(dataDir);
  const orphanDir = path.join(dataDir, 'pool', crashedRun!, orphanSocket.sessionId);
  const [orphanPid] = await processesUnder(orphanDir);
  assert.ok(orphanPid);
  crashed.child.kill('SIGKILL');
  await crashed.exited;
  await orphanSocket.closed;
  assert.ok((await processesUnder(orphanDir)).length > 0, 'the browser outlives a SIGKILLed pool');

  const pool = await startChildPool(dataDir, none);
  try {
    assert.match(pool.output(), /"killedProcesses":[1-9]\d*,"msg":"removed the leftovers of a previous run"/);
    assert.deepEqual(await processesUnder(orphanDir), []);
    assert.ok(!existsSync(path.join(dataDir, 'pool', crashedRun!)));
    assert.equal(runDirs(dataDir).length, 1);
    await sigtermLeavesNothing(pool, dataDir);
  } finally {
    if (pool.child.exitCode === null) pool.child.kill('SIGKILL');
  }
});

test('the leftover sweep finds sandboxed browsers by the --user-data-dir on their command line', async () => {
  const pool = await startTestPool({ capacity: 1 });
  try {
    const socket = await openSocket(pool.ws, auth);
    const session = pool.pool.sessions.get(socket.sessionId)!;
    const runDir = path.dirname(session.userDataDir);
    assert.ok(isRunning(session.pid!));
    assert.ok((await killBrowsersUnder(runDir)) > 0);
    await waitFor('the browser is gone', () => !isRunning(session.pid!));
    assert.deepEqual(await processesUnder(session.userDataDir), []);
    assert.equal((await socket.closed).code, 1011);
    await waitFor('session cleaned up', () => pool.pool.sessions.size === 0 && !existsSync(session.userDataDir));
  } finally {
    await pool.stop();
  }
});
