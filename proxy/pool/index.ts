// The local browser pool process: a managed provider that launches the system Chromium per
// session (see README.md in this folder). `tsx proxy/pool/index.ts`; settings from the environment.
import './service-name';
import { log } from '../../lib/log';
import { readPoolConfig } from './config';
import { startPool } from './server';

let running: Awaited<ReturnType<typeof startPool>>;
try {
  running = await startPool(readPoolConfig(), log);
} catch (error) {
  log.fatal({ err: (error as Error).message }, 'pool could not start');
  process.exit(1);
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal, sessions: running.pool.active }, 'pool stopping');
  // Stopping waits for every browser (at most the kill grace each, in parallel); never hang on it.
  setTimeout(() => {
    log.error('pool did not stop in time; exiting anyway');
    process.exit(1);
  }, running.pool.config.killGraceMs + 10_000).unref();
  await running.close();
  log.info('pool stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
