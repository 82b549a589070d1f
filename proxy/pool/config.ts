// The pool's settings, from the environment (see README.md in this folder), read as the service's
// are (lib/config/define.ts): a bad one is refused, every one named, and the pool does not start.
import path from 'node:path';
import { oneOf, parseSettings, text, whole } from '../../lib/config/define';
import { ADDRESS_SETTINGS, SECRET_SETTINGS } from '../../lib/config/service';
import { storedInstanceSecrets } from '../../lib/runtime/secrets';
import { deriveCapacity, machineResources } from './capacity';
import type { IsolationSetting } from './sandbox';

export interface PoolConfig {
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** Every request needs it (bearer header or `?token=`): POOL_TOKEN, else the one in <DATA_DIR>/secrets.json. */
  token: string;
  tokenFrom: 'POOL_TOKEN' | 'secrets.json';
  dataDir: string;
  /** `sandbox` (default): every browser under bwrap, as a uid of its own; `none`: POOL_ISOLATION=none. */
  isolation: IsolationSetting;
  /** Browsers run as uid (= gid) uidBase + slot when the pool runs as root. */
  uidBase: number;
  chromiumPath: string;
  capacity: number;
  capacityFrom: 'POOL_CAPACITY' | 'machine';
  launchTimeoutMs: number;
  killGraceMs: number;
  /** Lifetime of prepared uploads and of session snapshots. */
  archiveTtlMs: number;
  /** The per-profile size limit of docs/api.md (10 MB). */
  maxArchiveBytes: number;
  maxArchiveEntries: number;
}

export const MB = 1024 * 1024;

/** The token kept beside the instance's other secrets (generated there on first use). */
export const storedPoolToken = (dataDir: string): string => storedInstanceSecrets(dataDir).poolToken;

/** The pool process's settings (the form of each: lib/config/define.ts); DATA_DIR, HOST, POOL_PORT and POOL_TOKEN are the service's rows. */
export const POOL_SETTINGS = {
  dataDir: ADDRESS_SETTINGS.dataDir,
  host: ADDRESS_SETTINGS.host,
  port: ADDRESS_SETTINGS.poolPort,
  token: SECRET_SETTINGS.poolToken,
  capacity: whole('POOL_CAPACITY', null, 0, [1, 1_000], 'browsers at once (unset: derived from the machine)'),
  isolation: oneOf('POOL_ISOLATION', ['sandbox', 'none'], 'sandbox', 'every browser under bubblewrap as a uid of its own, or none'),
  // No system account: uids from 1000 up.
  uidBase: whole('POOL_UID_BASE', null, 10_000, [1_000, 4_000_000_000], 'browser slot n runs as uid POOL_UID_BASE + n (as root)'),
  chromiumPath: text('CHROMIUM_PATH', '/usr/bin/chromium', 'the browser the pool launches'),
  launchTimeoutMs: whole('POOL_LAUNCH_TIMEOUT_MS', 'ms', 30_000, [1, 10 * 60_000], 'how long a browser may take to start'),
  // A browser told to stop flushes what it holds (localStorage commits on its way out): on a
  // loaded machine that took over 3 s, and a SIGKILL then lost a profile's localStorage. The
  // SIGKILL is for a browser that hangs, so it comes late.
  killGraceMs: whole('POOL_KILL_GRACE_MS', 'ms', 15_000, [0, 5 * 60_000], 'between SIGTERM and SIGKILL'),
};

/** Throws one message naming every bad setting. */
export function readPoolConfig(env: Record<string, string | undefined> = process.env, storedToken: (dataDir: string) => string = storedPoolToken): PoolConfig {
  const s = parseSettings(POOL_SETTINGS, env);
  const dataDir = path.resolve(s.dataDir);
  return {
    host: s.host,
    port: s.port,
    token: s.token ?? storedToken(dataDir),
    tokenFrom: s.token ? 'POOL_TOKEN' : 'secrets.json',
    dataDir,
    isolation: s.isolation,
    uidBase: s.uidBase,
    chromiumPath: s.chromiumPath,
    capacity: s.capacity || deriveCapacity(machineResources()),
    capacityFrom: s.capacity ? 'POOL_CAPACITY' : 'machine',
    launchTimeoutMs: s.launchTimeoutMs,
    killGraceMs: s.killGraceMs,
    archiveTtlMs: 60_000,
    maxArchiveBytes: 10 * MB,
    maxArchiveEntries: 10_000,
  };
}

/** The pool never serves without a token: on loopback too, a tenant's page or another local process could reach it. */
export function checkExposure(config: Pick<PoolConfig, 'host' | 'token'>): string | undefined {
  if (!config.token) return 'refusing to start without a token: set POOL_TOKEN (npm start keeps one in <DATA_DIR>/secrets.json)';
  if (!isLoopback(config.host) && config.token.length < 16)
    return `refusing to listen on ${config.host} with a POOL_TOKEN of ${config.token.length} characters: use at least 16 random characters`;
  return undefined;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host) || /^::ffff:127\./.test(host);
}
