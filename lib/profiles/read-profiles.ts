// Profiles of a workspace: the list (newest first, paged like the other lists), one profile by
// slug, and its kept versions. Nothing here decrypts a state (see ./export-profile.ts).
import type { z } from 'zod';
import { notFound } from '../api/errors';
import { db } from '../db';
import type { listProfilesQuery } from './schemas';
import { currentVersionInclude, serializeProfile, serializeVersion } from './serialize';

export async function listProfiles(workspaceId: string, query: z.infer<typeof listProfilesQuery>) {
  const where = { workspaceId };
  const [items, total] = await Promise.all([
    db.profile.findMany({
      where,
      include: currentVersionInclude,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
    db.profile.count({ where }),
  ]);
  const now = new Date();
  return { items: items.map((p) => serializeProfile(p, now)), total, page: query.page, pageSize: query.pageSize };
}

/** The workspace's profile with that slug; another workspace's is not found, like a missing one. */
export async function getProfileRowOrThrow(workspaceId: string, slug: string) {
  const profile = await db.profile.findUnique({ where: { workspaceId_slug: { workspaceId, slug } }, include: currentVersionInclude });
  if (!profile) throw notFound('profile');
  return profile;
}

export async function getProfile(workspaceId: string, slug: string) {
  return serializeProfile(await getProfileRowOrThrow(workspaceId, slug));
}

/** The kept versions (at most VERSIONS_KEPT), newest first; `current` marks the one sessions load. */
export async function listProfileVersions(workspaceId: string, slug: string) {
  const profile = await getProfileRowOrThrow(workspaceId, slug);
  const versions = await db.profileVersion.findMany({
    where: { profileId: profile.id, profile: { workspaceId } },
    orderBy: { version: 'desc' },
    select: { version: true, sizeBytes: true, capturedOrigins: true, cookieCount: true, source: true, sessionLogId: true, createdAt: true },
  });
  const current = versions[0]?.version ?? 0;
  return { items: versions.map((v) => serializeVersion(v, current)), total: versions.length };
}
