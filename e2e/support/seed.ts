// Seed factories: rows written the way the product writes them, for tests that need a known state
// faster than the API makes it (hundreds of rows, a cap to sit at, states only a running proxy
// reaches). Each takes the owning ids plus overrides and returns what it created. Users come from
// `newUser` (api.ts), which runs the product's own sign-up; session history is in seed-sessions.ts.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Prisma, Role } from '../../lib/db';
import type { ProviderHeaders } from '../../lib/providers/address';

export * from './seed-sessions';

// Loaded on first use, like everything else in e2e/support: importing a helper opens nothing.
const database = async () => (await import('../../lib/db')).db;
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A membership as an accepted invitation writes it (the invitation flow has tests of its own). */
export async function seedMember(workspaceId: string, userId: string, role: Role = 'member') {
  const db = await database();
  return db.membership.create({ data: { workspaceId, userId, role } });
}

/**
 * `count` members, each with a user of its own, in two statements: a workspace at its member cap.
 * The users cannot sign in (hashing hundreds of real passwords would take minutes); nobody needs to.
 */
export async function seedMembers(workspaceId: string, count: number): Promise<number> {
  const db = await database();
  const users = await db.user.createManyAndReturn({
    data: Array.from({ length: count }, () => ({ email: `bulk-${hex(6)}@example.test`, name: 'bulk', passwordHash: 'x' })),
    select: { id: true },
  });
  const { count: created } = await db.membership.createMany({ data: users.map(({ id }) => ({ workspaceId, userId: id, role: 'member' as const })) });
  return created;
}

type RouterSeed = Partial<Omit<Prisma.RouterUncheckedCreateInput, 'workspaceId'>>;

/**
 * A router row without the key and pool provider that POST /v1/routers adds with it: the tests
 * that use one only list or filter by it (routerKey() in connect.ts reads a key for those that connect).
 */
export async function seedRouter(workspaceId: string, overrides: RouterSeed = {}) {
  const db = await database();
  const slug = overrides.slug ?? `router-${hex(4)}`;
  return db.router.create({ data: { slug, name: slug, ...overrides, workspaceId } });
}

/** `count` routers named r0…, slugs bulk-0…, in one statement: a workspace near its router cap. */
export async function seedRouters(workspaceId: string, count: number): Promise<number> {
  const db = await database();
  const { count: created } = await db.router.createMany({ data: Array.from({ length: count }, (_, i) => ({ workspaceId, name: `r${i}`, slug: `bulk-${i}` })) });
  return created;
}

/**
 * `count` live router keys in one statement, to sit at the key cap. Their hashes are of no real
 * key and they keep no ciphertext: they are counted, never used to connect.
 */
export async function seedRouterKeys(workspaceId: string, routerId: string, count: number): Promise<number> {
  const db = await database();
  const data = Array.from({ length: count }, (_, i) => ({ workspaceId, routerId, label: `k${i}`, prefix: 'rkey_x', keyHash: `bulk-${routerId}-${i}` }));
  const { count: created } = await db.routerKey.createMany({ data });
  return created;
}

type ProviderSeed = Partial<
  Omit<Prisma.ProviderUncheckedCreateInput, 'workspaceId' | 'routerId' | 'urlEncrypted' | 'urlDisplay' | 'headersEncrypted' | 'capabilities'>
> & {
  /** The address, sealed as the providers API seals it; none gives a row with no address. */
  url?: string;
  headers?: ProviderHeaders;
  /** Null: never probed. By default an addressed provider reads as a generic browser. */
  capabilities?: Prisma.InputJsonValue | null;
};

/**
 * A provider as the providers API stores it (address and headers sealed), without its live probe,
 * and the router change announced as the API does, so that running proxies route to it at once.
 */
export async function seedProvider(workspaceId: string, routerId: string, overrides: ProviderSeed = {}) {
  const { db, Prisma } = await import('../../lib/db');
  const { sealAddress } = await import('../../lib/providers/secrets');
  const { announceRouterChange } = await import('../../lib/routers/notify');
  const { url, headers, capabilities, ...fields } = overrides;
  const slug = fields.slug ?? `p-${hex(4)}`;
  const probed = capabilities === undefined && url ? { providerKind: 'generic', advertisedMaxConcurrent: null } : capabilities;
  const provider = await db.provider.create({
    data: {
      slug,
      name: slug,
      ...(url ? sealAddress(url, headers) : {}),
      ...fields,
      workspaceId,
      routerId,
      capabilities: probed ?? Prisma.DbNull,
    },
  });
  await announceRouterChange(routerId);
  return provider;
}

type ProfileSeed = Partial<Omit<Prisma.ProfileUncheckedCreateInput, 'workspaceId'>>;

/** A profile row with no saved state yet (as POST /v1/profiles without `captured` leaves it). */
export async function seedProfile(workspaceId: string, overrides: ProfileSeed = {}) {
  const db = await database();
  const slug = overrides.slug ?? `profile-${hex(4)}`;
  return db.profile.create({ data: { slug, name: slug, ...overrides, workspaceId } });
}

/**
 * `count` empty profiles, slugs bulk-1…, in one statement (the profile cap is 500; creating them
 * one by one through the API would take most of a test's time). Named `Bulk <n>` unless `name` is given.
 */
export async function seedProfiles(workspaceId: string, count: number, options: { name?: string } = {}): Promise<number> {
  const db = await database();
  return db.$executeRaw`
    INSERT INTO "Profile" ("id", "workspaceId", "slug", "name", "updatedAt")
    SELECT 'bulk-' || ${workspaceId} || '-' || g, ${workspaceId}, 'bulk-' || g, COALESCE(${options.name ?? null}::text, 'Bulk ' || g), now()
    FROM generate_series(1, ${count}::int) AS g`;
}

type ProxyInstanceSeed = Partial<Omit<Prisma.ProxyInstanceUncheckedCreateInput, 'id'>>;

/** A proxy run's row as Cluster.join writes it (id `<name>~<hex>`), for runs the test plays dead or slow. */
export async function seedProxyInstance(overrides: ProxyInstanceSeed = {}) {
  const db = await database();
  const name = overrides.name ?? `seeded-${randomUUID()}`;
  return db.proxyInstance.create({ data: { ...overrides, id: `${name}~${hex(6)}`, name } });
}
