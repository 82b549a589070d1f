import type { Profile, ProfileVersion } from '../db/generated/client';
import type { z } from 'zod';
import type { profile as profileAnswer, profileVersion as profileVersionAnswer } from '../openapi/resources/profiles';

/** What a Profile answer reads of its current (newest) version. */
export const currentVersionInclude = {
  versions: { orderBy: { version: 'desc' }, take: 1, select: { version: true, cookieCount: true } },
} as const;

export type ProfileWithCurrent = Profile & { versions: Pick<ProfileVersion, 'version' | 'cookieCount'>[] };

/**
 * The Profile resource of docs/api.md, plus this install's `version` (0 when never saved),
 * `cookieCount` (of that version) and `saving` (a session holds the saving lock now).
 */
export function serializeProfile(p: ProfileWithCurrent, now = new Date()): z.input<typeof profileAnswer> {
  const current = p.versions[0];
  return {
    id: p.id,
    workspaceId: p.workspaceId,
    slug: p.slug,
    name: p.name,
    sizeBytes: p.sizeBytes,
    capturedOrigins: p.capturedOrigins,
    lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    version: current?.version ?? 0,
    cookieCount: current?.cookieCount ?? 0,
    saving: p.lockSessionId !== null && p.lockExpiresAt !== null && p.lockExpiresAt.getTime() > now.getTime(),
  };
}

export type ProfileResource = ReturnType<typeof serializeProfile>;

/** One entry of GET /v1/profiles/:slug/versions. */
export function serializeVersion(v: Omit<ProfileVersion, 'stateEncrypted' | 'id' | 'profileId'>, currentVersion: number): z.input<typeof profileVersionAnswer> {
  return {
    version: v.version,
    sizeBytes: v.sizeBytes,
    capturedOrigins: v.capturedOrigins,
    cookieCount: v.cookieCount,
    source: v.source,
    sessionLogId: v.sessionLogId,
    createdAt: v.createdAt.toISOString(),
    current: v.version === currentVersion,
  };
}
