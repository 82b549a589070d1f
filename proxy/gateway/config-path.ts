// Where gateway.yml and the gateway's data (profiles, encryption key, saved login) live
// (docs/gateway.md, "gateway.yml"). The file system and the platform are passed in, so the
// lookup rules are tested without touching the real home directory.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export interface PlatformInfo {
  home: string;
  /** True inside a Docker container (`/.dockerenv` exists). */
  inDocker: boolean;
  /** Relative GW_DATA_DIR values are resolved against it. */
  cwd: string;
}

/** The facts gatewayDataDir needs, read from this process and machine. */
export function platformInfo(): PlatformInfo {
  return { home: homedir(), inDocker: existsSync('/.dockerenv'), cwd: process.cwd() };
}

/** The folder under the home directory used outside Docker when GW_DATA_DIR is unset. */
export const HOME_DATA_DIR = '.browser-gateway';

/** GW_DATA_DIR, else `/data` in Docker (the image's volume), else `~/.browser-gateway`. */
export function gatewayDataDir(env: Readonly<Record<string, string | undefined>>, platform: PlatformInfo): string {
  if (env.GW_DATA_DIR) return path.resolve(platform.cwd, env.GW_DATA_DIR);
  if (platform.inDocker) return '/data';
  return path.join(platform.home, HOME_DATA_DIR);
}

export type ConfigLocation = { found: true; path: string; source: 'flag' | 'env' | 'data-dir' | 'cwd' } | { found: false; searched: string[] };

/**
 * The serve lookup order: `--config`, then GW_CONFIG_PATH, then `<data dir>/gateway.yml`, then
 * `./gateway.yml`. An explicitly named file (flag or variable) is returned whether or not it
 * exists, so that a mistyped path fails loudly in loadConfig instead of another file being used.
 */
export function findConfigPath(options: {
  flag?: string;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  dataDir: string;
  exists?: (file: string) => boolean;
}): ConfigLocation {
  const { flag, env, cwd, dataDir, exists = existsSync } = options;
  if (flag) return { found: true, path: path.resolve(cwd, flag), source: 'flag' };
  if (env.GW_CONFIG_PATH) return { found: true, path: path.resolve(cwd, env.GW_CONFIG_PATH), source: 'env' };
  const candidates = [
    { path: path.join(dataDir, 'gateway.yml'), source: 'data-dir' as const },
    { path: path.resolve(cwd, 'gateway.yml'), source: 'cwd' as const },
  ];
  const hit = candidates.find((c) => exists(c.path));
  return hit ? { found: true, ...hit } : { found: false, searched: candidates.map((c) => c.path) };
}
