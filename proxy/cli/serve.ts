// `gateway serve`: the self-hosted gateway from gateway.yml, in the foreground, until SIGINT or
// SIGTERM; then the shutdown of docs/gateway.md (new requests get 503, sessions drain up to
// gateway.shutdownDrainMs, the rest are closed) and exit 0. A second signal exits at once.
import { log } from '../../lib/log';
import { LOG_LEVELS } from '../gateway/config';
import { startGateway } from '../gateway/server';
import { SetupError } from '../gateway/secrets';
import { readGatewayConfig } from './gateway-config';
import { CliError, out, UsageError } from './output';

export async function serve(options: { config?: string; port?: string }): Promise<void> {
  const env = process.env;
  let port: number | undefined;
  if (options.port !== undefined) {
    port = Number(options.port);
    if (!/^\d+$/.test(options.port) || port > 65_535) throw new UsageError(`--port must be a port number (0–65535), not "${options.port}"`);
  } else if (env.PORT !== undefined && (!/^\d+$/.test(env.PORT) || Number(env.PORT) > 65_535)) {
    throw new UsageError(`PORT must be a port number (0–65535), not "${env.PORT}"`);
  }
  if (env.LOG_LEVEL && !(LOG_LEVELS as readonly string[]).includes(env.LOG_LEVEL)) throw new UsageError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const { config, path, dataDir } = await readGatewayConfig(options.config, env);
  if (config.providers.length === 0) throw new CliError(`${path} has no providers; add at least one under "providers:" (see docs/gateway.example.yml)`);
  if (!env.LOG_LEVEL) log.level = config.logging.level;

  let gateway;
  try {
    gateway = await startGateway({ config, env, dataDir, port });
  } catch (error) {
    const { code, syscall } = error as NodeJS.ErrnoException;
    const where = `${env.HOST || (env.GW_TOKEN ? '0.0.0.0' : '127.0.0.1')}:${port ?? env.PORT ?? config.gateway.port}`;
    if (syscall === 'listen' && code === 'EADDRINUSE')
      throw new CliError(`port ${port ?? env.PORT ?? config.gateway.port} is in use; choose another with --port`);
    if (syscall === 'listen' && code === 'EACCES') throw new CliError(`not allowed to listen on ${where}`);
    if (syscall === 'listen' && code === 'EADDRNOTAVAIL') throw new CliError(`cannot listen on ${where}: HOST is not an address of this machine`);
    if (error instanceof SetupError) throw new CliError(error.message);
    if (code === 'EACCES' || code === 'EPERM') throw new CliError(`the data directory ${dataDir} cannot be used: ${(error as Error).message}`);
    throw error;
  }
  out(
    `gateway "${config.gateway.name}" listening on ${gateway.url}${gateway.host === '0.0.0.0' || gateway.host === '::' ? ' (all interfaces)' : ''} with ${config.providers.length} provider${config.providers.length === 1 ? '' : 's'} from ${path}`,
  );
  out(
    `connect: ${gateway.url.replace(/^http/, 'ws')}/v1/connect${env.GW_TOKEN ? '?token=<GW_TOKEN>' : ''}${config.dashboard.enabled ? `   dashboard: ${gateway.url}/` : ''}`,
  );

  await new Promise<void>((resolve) => {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      if (++signals > 1) {
        log.warn({ signal }, 'second signal: exiting without waiting for the drain');
        process.exit(1);
      }
      log.info({ signal }, 'signal received');
      // A backstop: whatever holds the shutdown up, the process ends soon after the drain time.
      setTimeout(() => {
        log.error('shutdown took too long; exiting');
        process.exit(1);
      }, config.gateway.shutdownDrainMs + 15_000).unref();
      void gateway.shutdown().then(resolve);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  log.info('gateway stopped');
  // Webhook retries still waiting (1, 5 and 15 s) would keep the process alive: the shutdown gave
  // deliveries in flight their time already.
  process.exit(0);
}
