// GET /v1/profiles/:slug/export: the current version decrypted, session cookies included, in the
// native shape (./state.ts, what is stored) or as a Playwright storage state. A profile never saved
// exports an empty state.
import { getProfileRowOrThrow } from './read-profiles';
import type { ExportFormat } from './schemas';
import { toNative, toPlaywright } from './state';
import { loadState } from './store';

export async function exportProfile(workspaceId: string, slug: string, format: ExportFormat) {
  const profile = await getProfileRowOrThrow(workspaceId, slug);
  const { state } = await loadState(profile.id);
  return { slug: profile.slug, document: format === 'playwright' ? toPlaywright(state) : toNative(state) };
}
