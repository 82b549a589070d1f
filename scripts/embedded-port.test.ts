// `npm start` with the embedded database's port held by something else: refused before PostgreSQL
// starts, naming the port and EMBEDDED_PG_PORT (it used to log in to the stranger and fail with
// "Authentication failed"). The embedded server of the same data directory is told apart and shared.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { checkEmbeddedPort } from '../lib/db/embedded';
import { freePort } from './lib/ports';
import { tsxBin } from './lib/processes';

async function holdPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('npm start refuses an embedded-database port held by another program, naming the port and EMBEDDED_PG_PORT', { timeout: 60_000 }, async () => {
  const holder = await holdPort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'br-pgport-'));
  const [webPort, proxyPort, poolPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(holder.port),
    WEB_PORT: String(webPort),
    PORT: String(proxyPort),
    POOL_PORT: String(poolPort),
    LOG_LEVEL: 'silent',
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [tsxBin, 'scripts/start.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    assert.notEqual(code, 0, output);
    assert.match(output, new RegExp(`port ${holder.port} \\(EMBEDDED_PG_PORT\\) is already in use`), output);
    assert.match(output, /set EMBEDDED_PG_PORT to a free port/);
    assert.doesNotMatch(output, /Authentication failed/);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await holder.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the embedded server of the same data directory is recognised by its postmaster.pid and shared', async () => {
  const holder = await holdPort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'br-pgport-'));
  try {
    // PostgreSQL's pid file: pid, data directory, start time, port, … (this process stands in as the postmaster).
    mkdirSync(path.join(dataDir, 'postgres'));
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    writeFileSync(pidFile, `${process.pid}\n${dataDir}/postgres\n1700000000\n${holder.port}\n\n127.0.0.1\n`);
    assert.equal(await checkEmbeddedPort(dataDir, holder.port), 'ours');
    // A pid file left behind by a dead server does not make a stranger on the port ours.
    writeFileSync(pidFile, `2147483646\n${dataDir}/postgres\n1700000000\n${holder.port}\n\n127.0.0.1\n`);
    await assert.rejects(checkEmbeddedPort(dataDir, holder.port), /EMBEDDED_PG_PORT/);
  } finally {
    await holder.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  assert.equal(await checkEmbeddedPort(dataDir, await freePort()), 'free');
});
