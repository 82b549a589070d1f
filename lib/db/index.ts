// The one Prisma module: nothing else constructs a client. Connection settings come from
// DATABASE_URL, which the start script sets (embedded PostgreSQL) unless the operator did.
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { log } from '../log';
import { PrismaClient } from './generated/client';
import { settings } from '../config/settings';

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

const globalForDb = globalThis as unknown as { __db?: PrismaClient; __pool?: pg.Pool };

function pool(): pg.Pool {
  if (!globalForDb.__pool) {
    // allowExitOnIdle: idle connections keep no process alive, so a script or a test file ends when
    // its work does instead of after the pool's 10 s idle timeout (servers stay up by their sockets).
    const created = new pg.Pool({ connectionString: settings().databaseUrl ?? '', max: settings().databasePoolSize, allowExitOnIdle: true });
    // An idle connection the server closed (a restart, a failover) is dropped from the pool and
    // replaced on next use; without a listener the error would end the process.
    created.on('error', (error) => log.warn({ err: error.message }, 'an idle database connection was closed'));
    globalForDb.__pool = created;
  }
  return globalForDb.__pool;
}

/**
 * Interactive transactions wait up to 10 s for a connection and may run 15 s (Prisma's defaults,
 * 2 s and 5 s, made a burst of sign-ups on a loaded two-core machine fail with "Unable to start a
 * transaction in the given time"): under load a request gets slower, not a 500. Every transaction
 * of the product is a few statements; the bound is against a hung one holding its locks.
 */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 };

function createClient(): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg(pool()), transactionOptions: TRANSACTION_OPTIONS });
}

/**
 * The same connections as `db`, for the few statements on the connect path (the provider lease,
 * proxy/cluster/leases.ts), where Prisma's own cost per query (about a millisecond here) would be
 * most of the statement's time. Plain SQL with numbered parameters; everything else uses `db`.
 */
export function sqlPool(): pg.Pool {
  return pool();
}

// Lazy so that importing a module that uses the database (e.g. during `next build`) opens nothing.
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    globalForDb.__db ??= createClient();
    const value = Reflect.get(globalForDb.__db, prop);
    return typeof value === 'function' ? value.bind(globalForDb.__db) : value;
  },
});

export { Prisma } from './generated/client';
export type { Role, SessionState, SessionKind, Mp4Status } from './generated/enums';
