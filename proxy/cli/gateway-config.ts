// The gateway.yml a command runs with: --config, else the lookup order of docs/gateway.md
// ("gateway.yml"), read and checked; what is wrong becomes a CliError naming the key and line.
import { ConfigError, findConfigPath, gatewayDataDir, loadConfig, platformInfo, type GatewayConfig } from '../gateway/config';
import { CliError } from './output';

export async function readGatewayConfig(
  flag: string | undefined,
  env: Record<string, string | undefined> = process.env,
): Promise<{ config: GatewayConfig; path: string; dataDir: string }> {
  const platform = platformInfo();
  const dataDir = gatewayDataDir(env, platform);
  const location = findConfigPath({ flag, env, cwd: platform.cwd, dataDir });
  if (!location.found)
    throw new CliError(`no gateway.yml found; looked in:\n${location.searched.map((place) => `  ${place}`).join('\n')}\nGive one with --config <path>.`);
  try {
    return { config: await loadConfig(location.path, env), path: location.path, dataDir };
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message);
    throw error;
  }
}
