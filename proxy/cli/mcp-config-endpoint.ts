// Where `gateway mcp --config <path>` gets its browsers: the providers of that gateway.yml, through
// a gateway started inside this process on loopback (docs/gateway.md, "mcp"). Each browser is a
// session of its /v1/connect, so failover, cooldown, limits and the queue apply as under `serve`.
import type { AgentEndpoint } from '../agent/types';
import { startGateway } from '../gateway/server';
import { readGatewayConfig } from './gateway-config';
import { CliError } from './output';

/** The browsers of a gateway.yml; `port` is --port when given (else PORT, the file's gateway.port, 9500). */
export async function endpointFromConfig(configPath: string, port: number | undefined): Promise<{ endpoint: AgentEndpoint; stop: () => Promise<void>; url: string }> {
  const env = process.env;
  const { config, path, dataDir } = await readGatewayConfig(configPath, env);
  if (config.providers.length === 0) throw new CliError(`${path} has no providers; add at least one under "providers:"`);
  // Only this process calls it: loopback, whatever HOST says.
  const gateway = await startGateway({ config, env: { ...env, HOST: '127.0.0.1' }, dataDir, port }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') throw new CliError(`port ${port ?? env.PORT ?? config.gateway.port} is in use; give gateway mcp another --port`);
    throw error;
  });
  const connect = new URL(`${gateway.url.replace(/^http/, 'ws')}/v1/connect`);
  if (env.GW_TOKEN) connect.searchParams.set('token', env.GW_TOKEN);
  return { endpoint: { kind: 'connect', connect: async () => ({ url: connect.toString() }) }, stop: () => gateway.shutdown(), url: gateway.url };
}
