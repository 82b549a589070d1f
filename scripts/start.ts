// npm start — the whole product on its embedded defaults (see README.md).
//
// Shutdown order matters: the web and the proxy stop first (the proxy drains its sessions for up to
// 30 s and writes their ends), then the pool whose browsers they use, PostgreSQL last. A terminal's Ctrl-C signals its whole
// foreground process group at once, PostgreSQL included, which would stop the database under a
// draining proxy. So this script runs in two parts: a front process that stays in the terminal's
// group and turns any stop signal into one SIGTERM, and the supervisor, started in a process group
// of its own with everything it starts, which stops the parts in order.
import { spawn } from 'node:child_process';
import { describeBlobStore, readBlobStoreConfig } from '../lib/blobs/config';
import { takeOverShutdownSignals } from '../lib/db/embedded';
import { settings } from './lib/env';
import { startStack, type Stack } from './lib/stack';

const SUPERVISED = 'BROWSER_ROUTER_SUPERVISOR';
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const log = (line: string) => console.log(`[start] ${line}`);

if (process.env[SUPERVISED] !== '1' && process.platform !== 'win32') runFront();
else await runSupervisor();

function runFront() {
  const supervisor = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [SUPERVISED]: '1' },
  });
  let firstSignalAt = 0;
  const onSignal = () => {
    const now = Date.now();
    if (firstSignalAt === 0) {
      firstSignalAt = now;
      supervisor.kill('SIGTERM');
    } else if (now - firstSignalAt > 1_000) {
      // A second Ctrl-C (not the same one relayed by npm or tsx): stop everything now.
      log('forced stop');
      try {
        process.kill(-supervisor.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  supervisor.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

async function runSupervisor() {
  let stack: Stack | undefined;
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (!stack) {
      // Still starting (database, migrations, build): end the whole group as a Ctrl-C used to.
      log('stopping during start-up');
      process.kill(-process.pid, 'SIGINT');
      process.exit(130);
    }
    log('stopping…');
    await stack.stop();
    log('stopped');
    process.exit(code);
  };
  await takeOverShutdownSignals();
  for (const signal of STOP_SIGNALS) process.on(signal, () => void shutdown(0));
  // The front process is gone (killed outright): do not outlive it.
  process.on('disconnect', () => void shutdown(1));

  stack = await startStack({ ...settings, log }).catch((error: Error) => {
    console.error(`[start] could not start: ${error.message}`);
    process.exit(1);
  });

  log(`database  ${stack.database.embedded ? `embedded PostgreSQL (data in ${settings.dataDir}/postgres)` : 'DATABASE_URL'}`);
  log(`dashboard ${stack.webUrl}`);
  log(`API       ${stack.webUrl}/v1`);
  log(`proxy     ${stack.proxyUrl.replace('http', 'ws')}/v1/connect`);
  log(`blobs     ${describeBlobStore(readBlobStoreConfig(stack.env))}`);
  log(`pool      ${stack.poolUrl.replace('http', 'ws')} (local Chromium, status ${stack.poolUrl}/pool/status)`);
  log(
    `egress    PRIVATE_NETWORK=${stack.privateNetwork}: ${
      stack.privateNetwork === 'deny'
        ? 'providers, webhooks, data-API pages and pool browsers reach public addresses only (allow: private ones too)'
        : "private addresses allowed (single-tenant); link-local, metadata and this service's own ports stay refused"
    }`,
  );
  await printOperatorClaim(stack);
  log('press Ctrl-C to stop');

  for (const child of stack.children) {
    child.on('exit', (code, signal) => {
      if (stopping) return;
      console.error(`[start] a process exited unexpectedly (code ${code}, signal ${signal}); stopping the rest`);
      void shutdown(1);
    });
  }
}

/**
 * While the installation has no operator: a one-time link that makes the signed-in account that
 * opens it the operator (lib/admin/operator-rights.ts). Each start replaces the previous link.
 */
async function printOperatorClaim(started: Stack) {
  process.env.DATABASE_URL = started.env.DATABASE_URL;
  (await import('../lib/config/settings')).reloadSettings();
  const { db, sqlPool } = await import('../lib/db');
  const { CLAIM_PATH, issueOperatorClaim } = await import('../lib/admin/operator-rights');
  try {
    const token = await issueOperatorClaim();
    if (token) {
      log(`operator  none yet. Sign up, then open this link to become the operator of this installation (one use; or: npm run operator -- --email <address>):`);
      log(`          ${started.webUrl}${CLAIM_PATH}?token=${token}`);
    }
  } finally {
    // The supervisor outlives this and stops PostgreSQL last: it must hold no connection.
    await db.$disconnect();
    await sqlPool().end();
  }
}
