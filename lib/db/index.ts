// The one Prisma module: nothing else constructs a client. Connection settings come from
// DATABASE_URL, which the start script sets (embedded PostgreSQL) unless the operator did.
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

const globalForDb = globalThis as unknown as { __db?: PrismaClient };

function createClient(): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: process.env.DATABASE_URL ?? '',
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
  });
  return new PrismaClient({ adapter });
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
export type { Role, SessionState, SessionKind } from './generated/enums';
