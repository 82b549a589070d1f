// Profiles at rest (docs/profiles.md): each version is the state's JSON, gzipped, sealed with
// AES-256-GCM under the instance key with the profile id as associated data (a version copied
// onto another profile does not open). Sizes are checked against the limits before anything is
// written; a new version and the profile's summary change in one transaction; the last
// VERSIONS_KEPT versions are kept. Used by the API (lib/profiles/*) and the proxy alike.
import { gunzipSync, gzipSync } from 'node:zlib';
import { ApiError } from '../api/errors';
import { decryptBytes, encryptBytes } from '../crypto/encryption';
import { db, Prisma, type Tx } from '../db';
import { PROFILES_PER_WORKSPACE } from '../workspaces/limits';
import { emptyState, originsOf, PROFILE_MAX_BYTES, stateSize, VERSIONS_KEPT, WORKSPACE_PROFILE_BYTES, type ProfileState } from './state';

export type VersionSource = 'session' | 'create' | 'import' | 'restore';

const aad = (profileId: string) => Buffer.from(`profile:${profileId}`, 'utf8');

export function sealState(profileId: string, state: ProfileState): Buffer {
  return encryptBytes(gzipSync(Buffer.from(JSON.stringify(state), 'utf8'), { level: 6 }), aad(profileId));
}

export function openState(profileId: string, sealed: Uint8Array): ProfileState {
  return JSON.parse(gunzipSync(decryptBytes(Buffer.from(sealed), aad(profileId))).toString('utf8')) as ProfileState;
}

/** The current (newest) version's state, or an empty state for a profile never saved. */
export async function loadState(profileId: string, client: Tx | typeof db = db): Promise<{ state: ProfileState; version: number }> {
  const row = await client.profileVersion.findFirst({ where: { profileId }, orderBy: { version: 'desc' }, select: { version: true, stateEncrypted: true } });
  if (!row) return { state: emptyState(), version: 0 };
  return { state: openState(profileId, row.stateEncrypted), version: row.version };
}

/** 413 `payload_too_large` when a state is over the per-profile limit. */
export function assertProfileSize(size: number): void {
  if (size > PROFILE_MAX_BYTES)
    throw new ApiError('payload_too_large', `the profile would be ${mb(size)} MB; a profile may hold at most ${mb(PROFILE_MAX_BYTES)} MB`);
}

export interface SaveInput {
  workspaceId: string;
  profileId: string;
  state: ProfileState;
  source: VersionSource;
  sessionLogId?: string | null;
}

/**
 * Writes `state` as the profile's next version. Refuses (413) over the per-profile limit or when
 * the workspace's profiles would pass their storage cap (counted as the sum of every profile's
 * current version, this one's new size in place of its old one). Returns the new version number.
 */
export async function saveVersion(input: SaveInput, tx?: Tx): Promise<{ version: number; sizeBytes: number }> {
  const size = stateSize(input.state);
  assertProfileSize(size);
  const sealed = sealState(input.profileId, input.state);
  const run = async (t: Tx) => {
    // The profile row is locked: versions of one profile are numbered one at a time.
    const [row] = await t.$queryRaw<
      { sizeBytes: number }[]
    >`SELECT "sizeBytes" FROM "Profile" WHERE "id" = ${input.profileId} AND "workspaceId" = ${input.workspaceId} FOR UPDATE`;
    if (!row) throw new ApiError('not_found', 'the profile no longer exists');
    const [sum] = await t.$queryRaw<
      { total: bigint }[]
    >`SELECT COALESCE(SUM("sizeBytes"), 0)::bigint AS total FROM "Profile" WHERE "workspaceId" = ${input.workspaceId}`;
    const after = Number(sum?.total ?? 0) - row.sizeBytes + size;
    if (after > WORKSPACE_PROFILE_BYTES) {
      throw new ApiError(
        'profile_storage_cap_exceeded',
        `saving would bring the workspace's profiles to ${mb(after)} MB; the workspace may store ${mb(WORKSPACE_PROFILE_BYTES)} MB of profiles (delete profiles you no longer need)`,
      );
    }
    const last = await t.profileVersion.findFirst({ where: { profileId: input.profileId }, orderBy: { version: 'desc' }, select: { version: true } });
    const version = (last?.version ?? 0) + 1;
    const origins = originsOf(input.state);
    await t.profileVersion.create({
      data: {
        profileId: input.profileId,
        version,
        stateEncrypted: new Uint8Array(sealed),
        sizeBytes: size,
        sessionLogId: input.sessionLogId ?? null,
        source: input.source,
        capturedOrigins: origins,
        cookieCount: input.state.cookies.length,
      },
    });
    await t.profile.update({ where: { id: input.profileId }, data: { sizeBytes: size, capturedOrigins: origins } });
    await t.profileVersion.deleteMany({ where: { profileId: input.profileId, version: { lte: version - VERSIONS_KEPT } } });
    return { version, sizeBytes: size };
  };
  return tx ? run(tx) : db.$transaction(run);
}

/**
 * Creates a profile (optionally with a first version) in one transaction: 402
 * `fair_use_limit_reached` at the workspace's 500th, 409 `conflict` when the slug is taken.
 */
export async function insertProfile(input: { workspaceId: string; slug: string; name: string; state?: ProfileState; source?: VersionSource }) {
  if (input.state) assertProfileSize(stateSize(input.state));
  try {
    return await db.$transaction(async (tx) => {
      // Counting and inserting under the workspace's row lock: two creates cannot both pass the cap.
      await tx.$executeRaw`SELECT 1 FROM "Workspace" WHERE "id" = ${input.workspaceId} FOR UPDATE`;
      const count = await tx.profile.count({ where: { workspaceId: input.workspaceId } });
      if (count >= PROFILES_PER_WORKSPACE)
        throw new ApiError('fair_use_limit_reached', `a workspace may hold ${PROFILES_PER_WORKSPACE} profiles; delete one you no longer need`);
      const profile = await tx.profile.create({ data: { workspaceId: input.workspaceId, slug: input.slug, name: input.name } });
      if (input.state) await saveVersion({ workspaceId: input.workspaceId, profileId: profile.id, state: input.state, source: input.source ?? 'create' }, tx);
      return tx.profile.findUniqueOrThrow({ where: { id: profile.id } });
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')
      throw new ApiError('conflict', `a profile with the slug "${input.slug}" already exists in this workspace`);
    throw error;
  }
}

// ---------------------------------------------------------------- the saving lock

/** A saving session's lock lives this long unless renewed (proxy/plugins/profile renews it every third of it). */
export const LOCK_TTL_MS = 60_000;

/**
 * Takes the profile's saving lock for `sessionId`: free, lapsed, or already this session's. Returns
 * null when taken, else the seconds another session would wait at most (for `Retry-After`).
 */
export async function acquireLock(profileId: string, sessionId: string, ttlMs = LOCK_TTL_MS): Promise<{ ok: true } | { ok: false; retryAfterS: number }> {
  const taken = await db.$executeRaw`
    UPDATE "Profile" SET "lockSessionId" = ${sessionId}, "lockExpiresAt" = now() + make_interval(secs => ${ttlMs / 1000})
    WHERE "id" = ${profileId} AND ("lockSessionId" IS NULL OR "lockExpiresAt" < now() OR "lockSessionId" = ${sessionId})`;
  if (taken === 1) return { ok: true };
  const row = await db.profile.findUnique({ where: { id: profileId }, select: { lockExpiresAt: true } });
  const remaining = row?.lockExpiresAt ? Math.ceil((row.lockExpiresAt.getTime() - Date.now()) / 1000) : 1;
  return { ok: false, retryAfterS: Math.min(10, Math.max(1, remaining)) };
}

/** Extends the lock while its session runs; false when it was lost (lapsed and taken by another). */
export async function renewLock(profileId: string, sessionId: string, ttlMs = LOCK_TTL_MS): Promise<boolean> {
  const n =
    await db.$executeRaw`UPDATE "Profile" SET "lockExpiresAt" = now() + make_interval(secs => ${ttlMs / 1000}) WHERE "id" = ${profileId} AND "lockSessionId" = ${sessionId}`;
  return n === 1;
}

export async function releaseLock(profileId: string, sessionId: string): Promise<void> {
  await db.$executeRaw`UPDATE "Profile" SET "lockSessionId" = NULL, "lockExpiresAt" = NULL WHERE "id" = ${profileId} AND "lockSessionId" = ${sessionId}`;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
