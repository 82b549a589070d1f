// `gateway check`: every provider of the configuration file, tried at once the way the gateway
// dials them (WebSocket within gateway.connectionTimeout, then one CDP answer). One line each, OK
// with the latency or FAIL with the reason, then the count; exit code 0 only when all answer. A file
// without providers has nothing to check, which is no failure (docs/gateway.md, "gateway.yml").
import { testOperatorAddress } from '../../lib/providers/check-provider';
import { readGatewayConfig } from './gateway-config';
import { out, paint } from './output';

export async function check(options: { config?: string }): Promise<void> {
  const { config, path: configPath } = await readGatewayConfig(options.config);
  if (config.providers.length === 0) {
    out(`0 providers in ${configPath}: nothing to check`);
    return;
  }
  const results = await Promise.all(
    config.providers.map(async (provider) => ({
      provider,
      outcome: await testOperatorAddress({ url: provider.url, headers: provider.headers }, config.gateway.connectionTimeout),
    })),
  );
  const colour = paint(process.stdout);
  const width = Math.max(...results.map((r) => r.provider.id.length));
  for (const { provider, outcome } of results) {
    if (outcome.ok) out(`${colour.green('OK  ')} ${provider.id.padEnd(width)}  ${outcome.latencyMs} ms`);
    else out(`${colour.red('FAIL')} ${provider.id.padEnd(width)}  ${outcome.reason}`);
  }
  const reachable = results.filter((r) => r.outcome.ok).length;
  out(`${reachable} of ${results.length} provider${results.length === 1 ? '' : 's'} reachable`);
  if (reachable < results.length) process.exitCode = 1;
}
