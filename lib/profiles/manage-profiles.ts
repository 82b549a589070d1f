// Create (empty or from a captured state), import a Playwright storage state, rename and delete
// profiles. The limits (500 per workspace, 10 MB each, 500 MB per workspace) and the slug conflict
// are enforced by ./store.ts, which the proxy shares.
import { notFound } from '../api/errors';
import { db } from '../db';
import { notifyRouterChanged } from '../routers/notify';
import type { CreateProfileInput, ImportPlaywrightInput } from './schemas';
import { currentVersionInclude, serializeProfile } from './serialize';
import { fromCaptured, fromPlaywright } from './state';
import { insertProfile } from './store';

async function serializeById(id: string) {
  return serializeProfile(await db.profile.findUniqueOrThrow({ where: { id }, include: currentVersionInclude }));
}

/** POST /v1/profiles: without `captured` the profile has no version yet (version 0). */
export async function createProfile(workspaceId: string, input: CreateProfileInput) {
  const state = input.captured ? fromCaptured(input.captured) : undefined;
  const profile = await insertProfile({ workspaceId, slug: input.slug, name: input.name, state, source: 'create' });
  return serializeById(profile.id);
}

/** POST /v1/profiles/import-playwright: the storage state becomes the profile's first version. */
export async function importPlaywrightProfile(workspaceId: string, input: ImportPlaywrightInput) {
  const profile = await insertProfile({ workspaceId, slug: input.slug, name: input.name, state: fromPlaywright(input.storageState), source: 'import' });
  return serializeById(profile.id);
}

export async function renameProfile(workspaceId: string, slug: string, name: string) {
  const { count } = await db.profile.updateMany({ where: { workspaceId, slug }, data: { name } });
  if (count === 0) throw notFound('profile');
  return serializeProfile(await db.profile.findUniqueOrThrow({ where: { workspaceId_slug: { workspaceId, slug } }, include: currentVersionInclude }));
}

/**
 * Every kept version goes with it (cascade). Providers pinned to it are unpinned and routers that
 * named it as their chat-agent default lose it (the schema's SET NULL); those routers are announced
 * as changed so the proxies reload them rather than route by a pin that no longer exists.
 */
export async function deleteProfile(workspaceId: string, slug: string) {
  return db.$transaction(async (tx) => {
    const profile = await tx.profile.findUnique({ where: { workspaceId_slug: { workspaceId, slug } }, select: { id: true, slug: true } });
    if (!profile) throw notFound('profile');
    const [pinned, defaults] = await Promise.all([
      tx.provider.findMany({ where: { workspaceId, profileId: profile.id }, select: { routerId: true }, distinct: ['routerId'] }),
      tx.router.findMany({ where: { workspaceId, defaultProfileId: profile.id }, select: { id: true } }),
    ]);
    await tx.profile.delete({ where: { id: profile.id } });
    for (const routerId of new Set([...pinned.map((p) => p.routerId), ...defaults.map((r) => r.id)])) await notifyRouterChanged(tx, routerId);
    return { slug: profile.slug };
  });
}
