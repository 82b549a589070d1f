// The proxy process: the connect endpoint and the data API (docs/connect.md), the webhook delivery worker
// and the periodic maintenance jobs.
import { checkBlobStoreConfig } from '../lib/blobs';
import { settings } from '../lib/config/settings';
import { log } from '../lib/log';
import { purgeDeletedAccounts } from '../lib/users/delete-account';
import { purgeSettledDeliveries } from '../lib/webhooks/outbox';
import { startProxy } from './server';

try {
  checkBlobStoreConfig();
  // Every setting is read now: bad ones stop the start, each named, rather than whatever first
  // uses one later.
  settings();
} catch (error) {
  log.fatal({ err: (error as Error).message }, 'proxy could not start');
  process.exit(1);
}

const { port, host, proxyInstanceId, proxyInternalUrl, proxyLane, trustProxy, encodeConcurrency, webhookDelivery } = settings();

const proxy = await startProxy({
  port,
  host,
  proxyInstanceId: proxyInstanceId ?? undefined,
  internalUrl: proxyInternalUrl ?? undefined,
  lane: proxyLane,
  trustProxy,
  // ENCODE_CONCURRENCY=0: this process runs no job worker (another one encodes and sweeps).
  jobs: encodeConcurrency === 0 ? false : undefined,
  // WEBHOOK_DELIVERY=0: this process delivers no webhooks (another proxy's worker does).
  webhooks: webhookDelivery ? undefined : false,
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
