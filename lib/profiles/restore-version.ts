// POST /v1/profiles/:slug/versions/:version/restore: a kept version's state is saved again as the
// newest version (source `restore`), under the same limits as any save; the versions after it stay
// in the history (until VERSIONS_KEPT newer ones push them out).
import { invalidField, notFound } from '../api/errors';
import { db } from '../db';
import { getProfileRowOrThrow } from './read-profiles';
import { currentVersionInclude, serializeProfile } from './serialize';
import { openState, saveVersion } from './store';

/** A path segment that is a version number (1, 2, …), or a validation_error naming `version`. */
export function parseVersionParam(raw: string): number {
  const version = /^[1-9][0-9]{0,8}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(version)) throw invalidField('version', 'use a version number (1 or more)');
  return version;
}

export async function restoreProfileVersion(workspaceId: string, slug: string, version: number) {
  const profile = await getProfileRowOrThrow(workspaceId, slug);
  const row = await db.profileVersion.findUnique({ where: { profileId_version: { profileId: profile.id, version } }, select: { stateEncrypted: true } });
  if (!row) throw notFound(`version ${version} of the profile`);
  await saveVersion({ workspaceId, profileId: profile.id, state: openState(profile.id, row.stateEncrypted), source: 'restore' });
  return serializeProfile(await db.profile.findUniqueOrThrow({ where: { id: profile.id }, include: currentVersionInclude }));
}
