// The proxy process: the connect endpoint and the data API (docs/connect.md), the webhook delivery worker
// and the periodic maintenance jobs.
import { checkBlobStoreConfig } from '../lib/blobs';
import { durations } from '../lib/config/durations';
import { log } from '../lib/log';
import { purgeDeletedAccounts } from '../lib/users/delete-account';
import { purgeSettledDeliveries } from '../lib/webhooks/outbox';
import { startProxy } from './server';

try {
  checkBlobStoreConfig();
  // The durations (SHUTDOWN_DRAIN_MS, LEASE_TTL_MS, ...) are read now: a bad one stops the start
  // with its name, rather than whatever first uses it later.
  durations();
} catch (error) {
  log.fatal({ err: (error as Error).message }, 'proxy could not start');
  process.exit(1);
}

const port = Number(process.env.PORT ?? 9500);
const host = process.env.HOST ?? '127.0.0.1';

const proxy = await startProxy({
  port,
  host,
  proxyInstanceId: process.env.PROXY_INSTANCE_ID,
  internalUrl: process.env.PROXY_INTERNAL_URL || undefined,
  lane: process.env.PROXY_LANE === 'pipeline' ? 'pipeline' : 'fast',
  trustProxy: process.env.TRUST_PROXY === '1',
  // ENCODE_CONCURRENCY=0: this process runs no job worker (another one encodes and sweeps).
  jobs: process.env.ENCODE_CONCURRENCY === '0' ? false : undefined,
  // WEBHOOK_DELIVERY=0: this process delivers no webhooks (another proxy's worker does).
  webhooks: process.env.WEBHOOK_DELIVERY === '0' ? false : undefined,
});
log.info({ port, host }, 'proxy listening');

const HOUR_MS = 3_600_000;
const WEBHOOK_LOG_RETENTION_MS = 30 * 24 * HOUR_MS;
const maintenance = setInterval(() => {
  purgeDeletedAccounts().catch((err: Error) => log.error({ err: err.message }, 'account purge failed'));
  purgeSettledDeliveries(WEBHOOK_LOG_RETENTION_MS).catch((err: Error) => log.error({ err: err.message }, 'webhook delivery purge failed'));
}, HOUR_MS);
maintenance.unref();

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal, sessions: proxy.sessions.size }, 'draining sessions before exit');
  clearInterval(maintenance);
  await proxy.stop();
  log.info('proxy stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
