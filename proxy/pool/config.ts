// The pool's settings, from the environment (see README.md in this folder).
import path from 'node:path';
import { deriveCapacity, machineResources } from './capacity';

export interface PoolConfig {
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** When set, every request needs it (bearer header or `?token=`). */
  token?: string;
  allowUnauthenticated: boolean;
  dataDir: string;
  chromiumPath: string;
  capacity: number;
  capacityFrom: 'POOL_CAPACITY' | 'machine';
  launchTimeoutMs: number;
  killGraceMs: number;
  /** Lifetime of prepared uploads and of session snapshots. */
  archiveTtlMs: number;
  /** The per-profile size limit of spec 1 (10 MB). */
  maxArchiveBytes: number;
  maxArchiveEntries: number;
}

export const MB = 1024 * 1024;

export function readPoolConfig(env: Record<string, string | undefined> = process.env): PoolConfig {
  const capacityOverride = env.POOL_CAPACITY ? positiveInt('POOL_CAPACITY', env.POOL_CAPACITY) : undefined;
  return {
    host: env.HOST || '127.0.0.1',
    port: env.POOL_PORT ? positiveInt('POOL_PORT', env.POOL_PORT, true) : 9600,
    token: env.POOL_TOKEN || undefined,
    allowUnauthenticated: env.POOL_ALLOW_UNAUTHENTICATED === '1',
    dataDir: path.resolve(env.DATA_DIR || '.data'),
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

/** Refuses to serve other machines without a token unless told to (security by default). */
export function checkExposure(config: Pick<PoolConfig, 'host' | 'token' | 'allowUnauthenticated'>): string | undefined {
  if (config.token || config.allowUnauthenticated || isLoopback(config.host)) return undefined;
  return `refusing to listen on ${config.host} without POOL_TOKEN: anyone who reaches it could drive a browser on this machine. Set POOL_TOKEN, bind HOST=127.0.0.1, or set POOL_ALLOW_UNAUTHENTICATED=1`;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host) || /^::ffff:127\./.test(host);
}

function positiveInt(name: string, value: string, allowZero = false): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1)) throw new Error(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got "${value}"`);
  return n;
}
