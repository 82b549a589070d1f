// The internal gateway of `gateway mcp` (docs/gateway.md, "mcp"): a gateway started inside this
// process on loopback when --config or --port asks for one. Its settings are those of the
// gateway.yml given by --config, else the defaults; its providers are that file's, or
// --cdp-endpoint alone when it is given (read as a gateway.yml provider's url would be). Each
// browser is a session of its /v1/connect, so failover, cooldown, limits and the queue apply as
// under `serve`.
import type { AgentEndpoint } from '../agent/types';
import { CONFIG_DEFAULTS, gatewayDataDir, platformInfo, PROVIDER_DEFAULTS, type GatewayConfig, type GatewayProvider } from '../gateway/config';
import { startGateway } from '../gateway/server';
import { maskEndpoint } from './browse-words';
import { readGatewayConfig } from './gateway-config';
import { CliError, UsageError } from './output';

/** The id --cdp-endpoint has as the internal gateway's provider (in its /v1/status and logs). */
export const CDP_ENDPOINT_PROVIDER = 'cdp-endpoint';

/** What the internal gateway can dial, for a usage error. */
const PROVIDER_FORMS =
  "a ws(s):// address, dialled as given (a browser's ws://host:port/devtools/browser/<id>, or a gateway's or router's ws(s)://host:port/v1/connect?token=…), or http(s)://host:port of a browser started with --remote-debugging-port=<port> (its WebSocket is asked of GET /json/version at each connect)";

export interface InternalGateway {
  endpoint: AgentEndpoint;
  stop: () => Promise<void>;
  /** http://127.0.0.1:port as bound. */
  url: string;
}

/**
 * --cdp-endpoint (already a URL of http(s) or ws(s)) as the internal gateway's provider, as a
 * gateway.yml entry with that url and nothing else would be: a ws(s):// address is dialled as
 * given; an http(s):// one is asked for <url>/json/version. The forms that can answer neither way
 * are refused before anything starts.
 */
export function endpointProvider(value: string): GatewayProvider {
  const url = new URL(value);
  const path = url.pathname.replace(/\/+$/, '');
  const http = url.protocol === 'http:' || url.protocol === 'https:';
  const refuse = (why: string) =>
    new UsageError(`--cdp-endpoint ${maskEndpoint(value)} cannot be the internal gateway's provider (with --config or --port): ${why}; give ${PROVIDER_FORMS}`);
  if (http && (path.includes('/devtools/') || path.endsWith('/v1/connect')))
    throw refuse('the gateway would ask it for /json/version, which a WebSocket address does not answer (give its ws:// form)');
  if (!http && path === '' && !url.search && !url.username)
    throw refuse(
      "the gateway would dial it as given, and neither a browser nor a gateway has a WebSocket there (for a browser's --remote-debugging-port, give http://host:port)",
    );
  return {
    id: CDP_ENDPOINT_PROVIDER,
    url: value,
    headers: {},
    limits: { maxConcurrent: null },
    priority: PROVIDER_DEFAULTS.priority,
    weight: PROVIDER_DEFAULTS.weight,
  };
}

/** The settings without a file: every default, no webhooks, no providers. */
function defaultSettings(env: NodeJS.ProcessEnv): { config: GatewayConfig; path: string; dataDir: string } {
  return {
    config: { ...structuredClone(CONFIG_DEFAULTS), webhooks: [], providers: [] },
    path: 'the default settings',
    dataDir: gatewayDataDir(env, platformInfo()),
  };
}

/**
 * Starts the internal gateway. `configPath` is --config (without it, the default settings);
 * `only` is --cdp-endpoint's provider, used instead of the file's; `port` is --port when given
 * (else PORT, the file's gateway.port, 9500).
 */
export async function endpointFromConfig(configPath: string | undefined, port: number | undefined, only?: GatewayProvider): Promise<InternalGateway> {
  const env = process.env;
  const read = configPath === undefined ? defaultSettings(env) : await readGatewayConfig(configPath, env);
  const config: GatewayConfig = { ...read.config, providers: only ? [only] : read.config.providers };
  if (config.providers.length === 0) throw new CliError(`${read.path} has no providers; add at least one under "providers:"`);
  // Only this process calls it: loopback, whatever HOST says.
  const gateway = await startGateway({ config, env: { ...env, HOST: '127.0.0.1' }, dataDir: read.dataDir, port }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') throw new CliError(`port ${port ?? env.PORT ?? config.gateway.port} is in use; give gateway mcp another --port`);
    throw error;
  });
  const connect = new URL(`${gateway.url.replace(/^http/, 'ws')}/v1/connect`);
  if (env.GW_TOKEN) connect.searchParams.set('token', env.GW_TOKEN);
  return { endpoint: { kind: 'connect', connect: async () => ({ url: connect.toString() }) }, stop: () => gateway.shutdown(), url: gateway.url };
}
