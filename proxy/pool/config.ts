// The pool's settings, from the environment (see README.md in this folder).
import path from 'node:path';
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

export function readPoolConfig(env: Record<string, string | undefined> = process.env, storedToken: (dataDir: string) => string = storedPoolToken): PoolConfig {
  const capacityOverride = env.POOL_CAPACITY ? positiveInt('POOL_CAPACITY', env.POOL_CAPACITY) : undefined;
  const dataDir = path.resolve(env.DATA_DIR || '.data');
  const isolation = env.POOL_ISOLATION || 'sandbox';
  if (isolation !== 'sandbox' && isolation !== 'none') throw new Error(`POOL_ISOLATION must be "sandbox" or "none", got "${isolation}"`);
  const uidBase = env.POOL_UID_BASE ? positiveInt('POOL_UID_BASE', env.POOL_UID_BASE) : 10_000;
  if (uidBase < 1000 || uidBase > 4_000_000_000) throw new Error(`POOL_UID_BASE must lie between 1000 and 4000000000 (no system account), got "${env.POOL_UID_BASE}"`);
  return {
    host: env.HOST || '127.0.0.1',
    port: env.POOL_PORT ? positiveInt('POOL_PORT', env.POOL_PORT, true) : 9600,
    token: env.POOL_TOKEN || storedToken(dataDir),
    tokenFrom: env.POOL_TOKEN ? 'POOL_TOKEN' : 'secrets.json',
    dataDir,
    isolation,
    uidBase,
    chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium',
    capacity: capacityOverride ?? deriveCapacity(machineResources()),
    capacityFrom: capacityOverride ? 'POOL_CAPACITY' : 'machine',
    launchTimeoutMs: env.POOL_LAUNCH_TIMEOUT_MS ? positiveInt('POOL_LAUNCH_TIMEOUT_MS', env.POOL_LAUNCH_TIMEOUT_MS) : 30_000,
    killGraceMs: env.POOL_KILL_GRACE_MS ? positiveInt('POOL_KILL_GRACE_MS', env.POOL_KILL_GRACE_MS, true) : 5_000,
    archiveTtlMs: 60_000,
    maxArchiveBytes: 10 * MB,
    maxArchiveEntries: 10_000,
  };
}

/** The pool never serves without a token: on loopback too, a tenant's page or another local process could reach it. */
export function checkExposure(config: Pick<PoolConfig, 'host' | 'token'>): string | undefined {
  if (!config.token) return 'refusing to start without a token: set POOL_TOKEN (npm start keeps one in <DATA_DIR>/secrets.json)';
  if (!isLoopback(config.host) && config.token.length < 16) return `refusing to listen on ${config.host} with a POOL_TOKEN of ${config.token.length} characters: use at least 16 random characters`;
  return undefined;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host) || /^::ffff:127\./.test(host);
}

function positiveInt(name: string, value: string, allowZero = false): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1)) throw new Error(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got "${value}"`);
  return n;
}
